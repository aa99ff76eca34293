import { Alert, Anchor, Button, Group, PasswordInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, ZRegister, type TRegister, type TTokenPair } from '@stageline/shared';
import { currentLanguage } from '../../../shared/i18n';
import { formError } from '../../../shared/lib/form-errors';
import { zodResolver } from '../../../shared/lib/zod-resolver';
import { register } from '../api';
import { OtpStep } from '../components/otp-step';
import { PasswordStrengthMeter } from '../components/password-strength-meter';
import { withPasswordConfirm } from '../lib/password-confirm';
import { loginPath, sanitizeNext } from '../session/next-path';
import { signIn } from '../session/session';
import { browserTimeZone } from '../../../shared/lib/time-zone';

/** The OAuth buttons read their providers through TanStack Query, as on the login screen. */
const OAuthButtons = lazy(async () => ({ default: (await import('../components/oauth-buttons')).OAuthButtons }));

type TValues = {
  username: string;
  email: string;
  password: string;
  password_confirm: string;
  first_name: string;
  last_name: string;
};

const ZRegisterForm = withPasswordConfirm(ZRegister);
const fields = ['username', 'email', 'password', 'first_name', 'last_name'] as const;

/**
 * `/register` (docs/rules.md §Accounts): the account, then the 6-digit code e-mailed to verify the address;
 * the code signs the new user in and the quickstart opens, or `next` when the visitor came with one
 * (an invite link: docs/decisions.md, entry 155). Signing up with a provider keeps `next` too.
 */
export default function RegisterScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = sanitizeNext(params.get('next'));
  const [ephemeralToken, setEphemeralToken] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<TValues>({
    initialValues: { username: '', email: '', password: '', password_confirm: '', first_name: '', last_name: '' },
    validate: zodResolver<TValues>(ZRegisterForm, t),
    validateInputOnBlur: true,
  });

  const submit = async (values: TValues) => {
    setProblem(null);
    const { password_confirm: _repeat, ...account } = ZRegisterForm.parse(values);
    const body: TRegister = {
      ...account,
      first_name: account.first_name || undefined,
      last_name: account.last_name || undefined,
      language: currentLanguage(),
      time_zone: browserTimeZone(),
    };
    try {
      const answer = await register(body);
      setEphemeralToken(answer.ephemeral_token);
    } catch (error) {
      setProblem(formError(error, { fields, setErrors: form.setErrors }));
    }
  };

  const verified = async (tokens: TTokenPair) => {
    await signIn(tokens);
    await navigate(next ?? paths.app.quickstart(), { replace: true });
  };

  if (ephemeralToken) {
    return <OtpStep ephemeralToken={ephemeralToken} onVerified={verified} onBack={() => setEphemeralToken(null)} />;
  }

  const { username, email, first_name, last_name } = form.values;
  return (
    <form onSubmit={form.onSubmit((values) => submit(values))} noValidate data-testid="register-form">
      <Stack gap="md">
        <Title order={1} size="h3">
          {t('Create account')}
        </Title>
        {problem ? (
          <Alert color="red" role="alert" data-testid="register-error">
            {problem}
          </Alert>
        ) : null}
        <TextInput
          label={t('Username')}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          data-testid="register-username"
          {...form.getInputProps('username')}
        />
        <TextInput
          label={t('E-mail')}
          type="email"
          autoComplete="email"
          required
          data-testid="register-email"
          {...form.getInputProps('email')}
        />
        <Stack gap={6}>
          <PasswordInput
            label={t('Password')}
            autoComplete="new-password"
            required
            data-testid="register-password"
            {...form.getInputProps('password')}
          />
          <PasswordStrengthMeter
            password={form.values.password}
            userInputs={[username, email, first_name, last_name]}
          />
        </Stack>
        <PasswordInput
          label={t('Repeat password')}
          autoComplete="new-password"
          required
          data-testid="register-password-confirm"
          {...form.getInputProps('password_confirm')}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <TextInput
            label={t('First name')}
            autoComplete="given-name"
            data-testid="register-first-name"
            {...form.getInputProps('first_name')}
          />
          <TextInput
            label={t('Last name')}
            autoComplete="family-name"
            data-testid="register-last-name"
            {...form.getInputProps('last_name')}
          />
        </SimpleGrid>
        <Button type="submit" fullWidth loading={form.submitting} data-testid="register-submit">
          {t('Register')}
        </Button>
        <Suspense fallback={null}>
          <OAuthButtons next={next} />
        </Suspense>
        <Group justify="center" gap={4}>
          <Text size="sm">{t('Already have an account?')}</Text>
          <Anchor component={Link} to={loginPath(next)} size="sm" data-testid="register-login">
            {t('Log in')}
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}

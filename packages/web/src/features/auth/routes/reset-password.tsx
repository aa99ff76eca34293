import { Alert, Anchor, Button, Loader, PasswordInput, Stack, Text, TextInput, Title, Center } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, ZPasswordResetConfirm, ZPasswordResetRequest } from '@stageline/shared';
import { ApiError } from '../../../shared/api';
import { QueryProvider } from '../../../shared/api/query-provider';
import { formError } from '../../../shared/lib/form-errors';
import { zodResolver } from '../../../shared/lib/zod-resolver';
import { showToast } from '../../../shared/ui/toast';
import { confirmPasswordReset, requestPasswordReset, validateResetToken } from '../api';
import { PasswordStrengthMeter } from '../components/password-strength-meter';
import { withPasswordConfirm } from '../lib/password-confirm';

/**
 * `/reset_pass` (docs/rules.md §Accounts): without a token, the e-mail to send a link to; with the link's
 * `?token=&email=`, the token is validated and a new password is chosen.
 */
export default function ResetPasswordScreen() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const email = params.get('email');
  // Its own query provider: the auth layout has none (/login's first load carries no TanStack Query).
  return (
    <QueryProvider>
      {token && email ? <NewPasswordStep token={token} email={email} /> : <RequestLinkStep />}
    </QueryProvider>
  );
}

function BackToLogin() {
  const { t } = useTranslation();
  return (
    <Text size="sm" ta="center">
      <Anchor component={Link} to={paths.login()} data-testid="reset-back-to-login">
        {t('Back to sign in')}
      </Anchor>
    </Text>
  );
}

function RequestLinkStep() {
  const { t } = useTranslation();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<{ email: string }>({
    initialValues: { email: '' },
    validate: zodResolver<{ email: string }>(ZPasswordResetRequest, t),
  });

  const submit = async (values: { email: string }) => {
    setProblem(null);
    const { email } = ZPasswordResetRequest.parse(values);
    try {
      await requestPasswordReset(email);
      setSentTo(email);
    } catch (error) {
      setProblem(formError(error, { fields: ['email'], setErrors: form.setErrors }));
    }
  };

  if (sentTo) {
    return (
      <Stack gap="md">
        <Title order={1} size="h3">
          {t('Password recovery')}
        </Title>
        <Alert color="teal" data-testid="reset-sent" title={t('Check your e-mail')}>
          {t('If an account uses {{email}}, we have sent it a link to choose a new password.', { email: sentTo })}
        </Alert>
        <BackToLogin />
      </Stack>
    );
  }

  return (
    <form onSubmit={form.onSubmit((values) => submit(values))} noValidate data-testid="reset-form">
      <Stack gap="md">
        <Title order={1} size="h3">
          {t('Password recovery')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('Enter the e-mail of your account and we will send you a link to choose a new password.')}
        </Text>
        {problem ? (
          <Alert color="red" role="alert" data-testid="reset-error">
            {problem}
          </Alert>
        ) : null}
        <TextInput
          label={t('E-mail')}
          type="email"
          autoComplete="email"
          required
          data-testid="reset-email"
          {...form.getInputProps('email')}
        />
        <Button type="submit" fullWidth loading={form.submitting} data-testid="reset-submit">
          {t('Send link')}
        </Button>
        <BackToLogin />
      </Stack>
    </form>
  );
}

type TNewPassword = { token: string; email: string; password: string; password_confirm: string };
const ZNewPasswordForm = withPasswordConfirm(ZPasswordResetConfirm);

function NewPasswordStep({ token, email }: { token: string; email: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [problem, setProblem] = useState<string | null>(null);
  const validation = useQuery({
    queryKey: ['password_reset', 'validate', token, email],
    queryFn: () => validateResetToken(token, email).then(() => true),
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });
  const form = useForm<TNewPassword>({
    initialValues: { token, email, password: '', password_confirm: '' },
    validate: zodResolver<TNewPassword>(ZNewPasswordForm, t),
  });

  const submit = async (values: TNewPassword) => {
    setProblem(null);
    const { password_confirm: _repeat, ...body } = ZNewPasswordForm.parse(values);
    try {
      await confirmPasswordReset(body);
      showToast({ kind: 'success', message: t('Password changed') });
      await navigate(paths.login(), { replace: true });
    } catch (error) {
      const message = formError(error, { fields: ['password'], setErrors: form.setErrors });
      // The link's token or e-mail refused now (used meanwhile, expired): not a field the user can fix.
      const tokenRefused = error instanceof ApiError && Boolean(error.fields?.token ?? error.fields?.email);
      setProblem(tokenRefused ? t('Invalid token') : message);
    }
  };

  const header = (
    <Title order={1} size="h3">
      {t('Choose a new password')}
    </Title>
  );

  if (validation.isPending) {
    return (
      <Stack gap="md">
        {header}
        <Center py="md">
          <Loader aria-label={t('Loading...')} />
        </Center>
      </Stack>
    );
  }
  if (validation.isError) {
    return (
      <Stack gap="md">
        {header}
        <Alert color="red" role="alert" data-testid="reset-invalid" title={t('Invalid token')}>
          {t('The link is wrong, used or expired. Ask for a new one.')}
        </Alert>
        <Button component={Link} to={paths.resetPassword()} variant="light" data-testid="reset-new-link">
          {t('Send a new link')}
        </Button>
        <BackToLogin />
      </Stack>
    );
  }

  return (
    <form onSubmit={form.onSubmit((values) => submit(values))} noValidate data-testid="reset-confirm-form">
      <Stack gap="md">
        {header}
        <Text size="sm" c="dimmed">
          {t('For {{email}}', { email })}
        </Text>
        {problem ? (
          <Alert color="red" role="alert" data-testid="reset-error">
            {problem}
          </Alert>
        ) : null}
        <Stack gap={6}>
          <PasswordInput
            label={t('New password')}
            autoComplete="new-password"
            required
            data-testid="reset-password"
            {...form.getInputProps('password')}
          />
          <PasswordStrengthMeter password={form.values.password} userInputs={[email]} />
        </Stack>
        <PasswordInput
          label={t('Repeat password')}
          autoComplete="new-password"
          required
          data-testid="reset-password-confirm"
          {...form.getInputProps('password_confirm')}
        />
        <Button type="submit" fullWidth loading={form.submitting} data-testid="reset-confirm-submit">
          {t('Change password')}
        </Button>
      </Stack>
    </form>
  );
}

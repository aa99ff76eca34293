import { Alert, Button, Checkbox, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ZPasswordChange, type TMe } from '@stageline/shared';
import { ApiError } from '../../../shared/api';
import { formError } from '../../../shared/lib/form-errors';
import { zodResolver } from '../../../shared/lib/zod-resolver';
import { showToast } from '../../../shared/ui/toast';
import { CodeInput, PasswordStrengthMeter, ResendCodeButton, sendCode, withPasswordConfirm } from '../../auth';
import { changePassword } from '../api';
import { Section } from '../../../shared/ui/section';

type TValues = { code: string; password: string; password_confirm: string; revoke_api_tokens: boolean };
const ZPasswordForm = withPasswordConfirm(ZPasswordChange);

/**
 * Password change (docs/rules.md §Accounts): a code e-mailed for it, then the new password twice and
 * whether to revoke the API tokens too (docs/security.md, "API tokens").
 */
export function PasswordSection({ user }: { user: TMe }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<TValues>({
    initialValues: { code: '', password: '', password_confirm: '', revoke_api_tokens: false },
    validate: zodResolver<TValues>(ZPasswordForm, t),
  });

  const close = () => {
    setOpened(false);
    setProblem(null);
    form.reset();
  };

  const start = async () => {
    setSending(true);
    try {
      await sendCode({ purpose: 'password_change' });
      setOpened(true);
    } catch (error) {
      showToast({ kind: 'error', message: formError(error, {}) ?? t('Error while sending code') });
    } finally {
      setSending(false);
    }
  };

  const submit = async (values: TValues) => {
    setProblem(null);
    const { code, password, revoke_api_tokens } = ZPasswordForm.parse(values);
    try {
      await changePassword({ code, password, revoke_api_tokens });
      showToast({ kind: 'success', message: t('Password changed') });
      close();
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && !error.fields) {
        form.setFieldError('code', t('Code is invalid, try to resend'));
        return;
      }
      setProblem(
        formError(error, {
          fields: ['code', 'password'],
          setErrors: form.setErrors,
          fallback: t('Data was not saved'),
        }),
      );
    }
  };

  return (
    <Section
      title={t('Password')}
      description={
        user.has_password
          ? t('Changing the password signs you out on your other devices.')
          : t('You sign in with another service. Set a password to sign in with it too.')
      }
      testId="profile-password-section"
    >
      <Group>
        <Button variant="light" loading={sending} onClick={() => void start()} data-testid="profile-password-change">
          {user.has_password ? t('Change password') : t('Set a password')}
        </Button>
      </Group>
      <Modal opened={opened} onClose={close} title={t('Change password')} centered data-testid="profile-password-modal">
        <form onSubmit={form.onSubmit((values) => submit(values))} noValidate>
          <Stack gap="md">
            <Text size="sm" c="dimmed">
              {t('Code sent, check your email.')}
            </Text>
            {problem ? (
              <Alert color="red" role="alert" data-testid="profile-password-error">
                {problem}
              </Alert>
            ) : null}
            <CodeInput
              value={form.values.code}
              onChange={(value) => form.setFieldValue('code', value)}
              error={form.errors.code as string | undefined}
              testId="profile-password-code"
            />
            <Stack gap={6}>
              <PasswordInput
                label={t('New password')}
                autoComplete="new-password"
                required
                data-testid="profile-password-new"
                {...form.getInputProps('password')}
              />
              <PasswordStrengthMeter
                password={form.values.password}
                userInputs={[user.username, user.email, user.first_name, user.last_name]}
              />
            </Stack>
            <PasswordInput
              label={t('Repeat password')}
              autoComplete="new-password"
              required
              data-testid="profile-password-confirm"
              {...form.getInputProps('password_confirm')}
            />
            <Checkbox
              label={t('Also revoke my API tokens')}
              description={t(
                'Scripts using them stop working. The e-mail about the change lists the tokens that still work.',
              )}
              data-testid="profile-password-revoke-tokens"
              {...form.getInputProps('revoke_api_tokens', { type: 'checkbox' })}
            />
            <Group justify="space-between">
              <ResendCodeButton
                send={() => sendCode({ purpose: 'password_change' })}
                testId="profile-password-resend"
              />
              <Button type="submit" loading={form.submitting} data-testid="profile-password-submit">
                {t('Change password')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Section>
  );
}

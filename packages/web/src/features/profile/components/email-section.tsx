import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ZEmailChange, type TMe } from '@stageline/shared';
import { formError } from '../../../shared/lib/form-errors';
import { zodResolver } from '../../../shared/lib/zod-resolver';
import { showToast } from '../../../shared/ui/toast';
import { sendCode } from '../../auth';
import { changeEmail } from '../api';
import { CodeModal } from './code-modal';
import { Section } from '../../../shared/ui/section';

const ZEmailForm = ZEmailChange.pick({ email: true });

/**
 * E-mail change (docs/rules.md §Accounts): only with 2FA on; an unchanged address changes nothing; the
 * change is confirmed in a dialog, then by a code, and finally through the link sent to the new
 * address (`/change_email`).
 */
export function EmailSection({ user }: { user: TMe }) {
  const { t } = useTranslation();
  const [step, setStep] = useState<'idle' | 'confirm' | 'code'>('idle');
  const [sending, setSending] = useState(false);
  const [pending, setPending] = useState<string | null>(null);
  const form = useForm<{ email: string }>({
    initialValues: { email: user.email },
    validate: zodResolver<{ email: string }>(ZEmailForm, t),
  });
  const target = ZEmailForm.safeParse(form.values).data?.email ?? form.values.email.trim();

  const save = () => {
    if (target.toLowerCase() === user.email.toLowerCase()) {
      showToast({ kind: 'info', message: t('Email was not changed') });
      return;
    }
    setStep('confirm');
  };

  const sendAndAsk = async () => {
    setSending(true);
    try {
      await sendCode({ purpose: 'email_change' });
      setStep('code');
    } catch (error) {
      setStep('idle');
      showToast({ kind: 'error', message: formError(error, {}) ?? t('Error while sending code') });
    } finally {
      setSending(false);
    }
  };

  return (
    <Section
      title={t('E-mail')}
      description={t('We send codes, links and notifications to this address.')}
      testId="profile-email-section"
    >
      {!user.two_factor ? (
        <Alert color="blue" data-testid="profile-email-needs-2fa">
          {t('To change your e-mail, turn on two-factor authentication first: the change is confirmed by a code.')}
        </Alert>
      ) : null}
      {pending ? (
        <Alert color="teal" data-testid="profile-email-pending" withCloseButton onClose={() => setPending(null)}>
          {t('We have sent a confirmation link to {{email}}. Open it to finish the change.', { email: pending })}
        </Alert>
      ) : null}
      <form onSubmit={form.onSubmit(save)} noValidate>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            label={t('E-mail')}
            type="email"
            autoComplete="email"
            required
            disabled={!user.two_factor}
            style={{ flex: '1 1 240px' }}
            data-testid="profile-email"
            {...form.getInputProps('email')}
          />
          <Button type="submit" disabled={!user.two_factor} data-testid="profile-email-save">
            {t('Change e-mail')}
          </Button>
        </Group>
      </form>
      <Modal
        opened={step === 'confirm'}
        onClose={() => setStep('idle')}
        title={t('Change e-mail')}
        centered
        data-testid="profile-email-confirm"
      >
        <Stack gap="md">
          <Text size="sm">
            {t('Change your e-mail from {{from}} to {{to}}? We will e-mail a code to your current address.', {
              from: user.email,
              to: target,
            })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setStep('idle')}>
              {t('Cancel')}
            </Button>
            <Button loading={sending} onClick={() => void sendAndAsk()} data-testid="profile-email-confirm-yes">
              {t('Continue')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <CodeModal
        opened={step === 'code'}
        onClose={() => setStep('idle')}
        title={t('Change e-mail')}
        purpose="email_change"
        confirmLabel={t('Change e-mail')}
        testId="profile-email-code"
        onConfirm={async (code) => {
          await changeEmail(target, code);
          setPending(target);
          form.setValues({ email: user.email });
        }}
      />
    </Section>
  );
}

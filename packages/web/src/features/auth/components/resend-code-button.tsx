import { Button } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Limits } from '@stageline/shared';
import { ApiError } from '../../../shared/api';
import { showToast } from '../../../shared/ui/toast';
import { useCountdown } from '../lib/use-countdown';

/**
 * Sends a new code, then stays disabled for otp_timeout (30 s) with a live countdown. `sentNow`
 * starts the countdown at once, for a step that opens right after a code was e-mailed.
 */
export function ResendCodeButton({
  send,
  sentNow = true,
  onSent,
  label,
  testId = 'otp-resend',
}: {
  send: () => Promise<unknown>;
  sentNow?: boolean;
  onSent?: () => void;
  label?: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  const { left, restart } = useCountdown(Limits.otpTimeoutSeconds, sentNow);
  const [sending, setSending] = useState(false);

  const onClick = async () => {
    setSending(true);
    try {
      await send();
      restart();
      showToast({ kind: 'success', title: t('Code sended'), message: t('Code sent, check your email.') });
      onSent?.();
    } catch (error) {
      const rateLimited = error instanceof ApiError && error.status === 429;
      showToast({ kind: 'error', message: rateLimited ? error.message : t('Error while sending code') });
    } finally {
      setSending(false);
    }
  };

  return (
    <Button
      variant="subtle"
      onClick={() => void onClick()}
      disabled={left > 0}
      loading={sending}
      data-testid={testId}
      aria-live="polite"
    >
      {left > 0 ? t('Send a new code in {{seconds}} s', { seconds: left }) : (label ?? t('Send a new code'))}
    </Button>
  );
}

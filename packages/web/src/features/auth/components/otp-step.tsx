import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ZCode, type TTokenPair } from '@stageline/shared';
import { ApiError } from '../../../shared/api';
import { checkCode, sendCode } from '../api';
import { CodeInput } from './code-input';
import { ResendCodeButton } from './resend-code-button';

/**
 * The code step after registration, a 2FA login or an unverified e-mail: the 6-digit code e-mailed
 * for `ephemeralToken` is checked by otp/check/, which answers the session's tokens.
 */
export function OtpStep({
  ephemeralToken,
  onVerified,
  onBack,
  title,
  notice,
  canResend = true,
}: {
  ephemeralToken: string;
  onVerified: (tokens: TTokenPair) => Promise<void> | void;
  onBack?: () => void;
  title?: string;
  /** What the server said about this step, instead of 'Code sent' (a sign-in past its failure limit). */
  notice?: string;
  /** Whether a new code may be asked for here (not for a code that only a right password sends). */
  canResend?: boolean;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const inFlight = useRef(false);

  const submit = async (value: string) => {
    if (inFlight.current) return;
    const parsed = ZCode.safeParse(value);
    if (!parsed.success) {
      setError(t('Enter 6-digits code'));
      return;
    }
    inFlight.current = true;
    setChecking(true);
    setError(null);
    try {
      const tokens = await checkCode(parsed.data, ephemeralToken);
      await onVerified(tokens);
    } catch (failure) {
      const rateLimited = failure instanceof ApiError && failure.status === 429;
      setError(rateLimited ? failure.message : t('Code is invalid, try to resend'));
      setCode('');
    } finally {
      inFlight.current = false;
      setChecking(false);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit(code);
  };

  return (
    <form onSubmit={onSubmit} noValidate data-testid="otp-step">
      <Stack gap="md">
        <Title order={1} size="h3">
          {title ?? t('Confirm your e-mail')}
        </Title>
        {notice ? (
          <Alert color="yellow" role="status" data-testid="otp-notice">
            {notice}
          </Alert>
        ) : (
          <Text c="dimmed" size="sm" data-testid="otp-sent">
            {t('Code sent, check your email.')} {t('It may take about a minute to arrive.')}
          </Text>
        )}
        <CodeInput
          value={code}
          onChange={(value) => {
            setCode(value);
            if (error) setError(null);
          }}
          onComplete={(value) => void submit(value)}
          error={error}
          disabled={checking}
        />
        <Button type="submit" loading={checking} fullWidth data-testid="otp-submit">
          {t('Confirm')}
        </Button>
        <Group justify="space-between" gap="xs">
          {onBack ? (
            <Anchor component="button" type="button" size="sm" onClick={onBack} data-testid="otp-back">
              {t('Back')}
            </Anchor>
          ) : (
            <span />
          )}
          {canResend ? <ResendCodeButton send={() => sendCode({ ephemeralToken })} /> : null}
        </Group>
      </Stack>
    </form>
  );
}

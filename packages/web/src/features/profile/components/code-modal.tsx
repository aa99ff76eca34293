import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ZCode, type ZOtpPurpose } from '@stageline/shared';
import type { z } from 'zod';
import { ApiError } from '../../../shared/api';
import { formError } from '../../../shared/lib/form-errors';
import { CodeInput, ResendCodeButton, sendCode } from '../../auth';

type TPurpose = z.infer<typeof ZOtpPurpose>;

/**
 * Confirms a profile change with the code just e-mailed for `purpose` (2FA, e-mail change): the
 * code, a resend button with its countdown, and the action, whose errors show inside.
 */
export function CodeModal({
  opened,
  onClose,
  title,
  description,
  purpose,
  confirmLabel,
  onConfirm,
  testId,
  children,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  purpose: TPurpose;
  confirmLabel: string;
  onConfirm: (code: string) => Promise<void>;
  testId: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    setCode('');
    setError(null);
    setProblem(null);
    onClose();
  };

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const parsed = ZCode.safeParse(code);
    if (!parsed.success) return setError(t('Enter 6-digits code'));
    setBusy(true);
    setError(null);
    setProblem(null);
    try {
      await onConfirm(parsed.data);
      close();
    } catch (failure) {
      const codeRefused = failure instanceof ApiError && failure.status === 400 && !failure.fields;
      if (codeRefused) setError(t('Code is invalid, try to resend'));
      else setProblem(formError(failure, { fields: ['code'], setErrors: (errors) => setError(errors.code ?? null) }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={title} centered data-testid={testId}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          {description ? <Text size="sm">{description}</Text> : null}
          <Text size="sm" c="dimmed">
            {t('Code sent, check your email.')}
          </Text>
          {problem ? (
            <Alert color="red" role="alert" data-testid={`${testId}-error`}>
              {problem}
            </Alert>
          ) : null}
          {children}
          <CodeInput value={code} onChange={setCode} error={error} disabled={busy} testId={`${testId}-code`} />
          <Group justify="space-between">
            <ResendCodeButton send={() => sendCode({ purpose })} testId={`${testId}-resend`} />
            <Button type="submit" loading={busy} data-testid={`${testId}-submit`}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A yes/no question before an action that cannot be undone. */
export function ConfirmModal({
  opened,
  title,
  children,
  confirmLabel,
  danger = false,
  loading = false,
  onConfirm,
  onClose,
  testId,
}: {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  loading?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered data-testid={testId}>
      <Stack gap="md">
        {typeof children === 'string' ? <Text size="sm">{children}</Text> : children}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose} data-testid={`${testId}-cancel`}>
            {t('Cancel')}
          </Button>
          <Button color={danger ? 'red' : undefined} loading={loading} onClick={onConfirm} data-testid={`${testId}-ok`}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

import { Alert, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageCard } from '../ui/page-card';
import type { TRecord } from './use-record';

/**
 * What a record screen shows before its record is there: the 'no id' error (unless the context
 * allows none), a loader while loading, nothing once deleted or failed (the loader is leaving).
 * With the record, `children` draw the screen.
 */
export function RecordView<T, TChanges>({
  record,
  title,
  children,
}: {
  record: TRecord<T, TChanges>;
  title: string;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  if (record.status === 'no-id') {
    if (record.allowEmpty) return null;
    return (
      <PageCard title={title}>
        <Alert color="red" role="alert" data-testid="record-no-id">
          {t('Error loading context: no id provided')}
        </Alert>
      </PageCard>
    );
  }
  if (record.data !== undefined && record.status !== 'deleted') return <>{children(record.data)}</>;
  return (
    <PageCard title={title}>
      <Group justify="center" py="xl" data-testid="record-loading" data-status={record.status}>
        <Loader />
      </Group>
    </PageCard>
  );
}

/** Delete with a confirmation; the loader then says 'Deleted' and goes home, or names the failure. */
export function RecordDeleteButton<T, TChanges>({
  record,
  name,
  testId,
}: {
  record: TRecord<T, TChanges>;
  /** The record's name, for the question. */
  name: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  const confirm = async () => {
    const done = await record.remove();
    if (!done) close();
  };
  return (
    <>
      <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={open} data-testid={testId}>
        {t('Delete')}
      </Button>
      <Modal opened={opened} onClose={close} title={t('Confirm deletion')} centered>
        <Stack gap="md">
          <Text size="sm">{t('“{{name}}” will be deleted. This cannot be undone.', { name })}</Text>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close} data-testid="record-delete-cancel">
              {t('Cancel')}
            </Button>
            <Button
              color="red"
              loading={record.deleting}
              onClick={() => void confirm()}
              data-testid="record-delete-confirm"
            >
              {t('Delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

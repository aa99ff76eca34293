import { ActionIcon, Group, Progress, Stack, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TUpload } from '../use-uploads';

/** The files being uploaded: a progress bar and a cancel button each, or the reason one failed. */
export function UploadQueue({ uploads, onCancel }: { uploads: TUpload[]; onCancel: (key: number) => void }) {
  const { t } = useTranslation();
  if (uploads.length === 0) return null;
  return (
    <Stack gap={6} data-testid="upload-queue">
      {uploads.map((upload) => (
        <Group key={upload.key} gap="xs" wrap="nowrap" data-testid="upload-row">
          <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
            <Text size="xs" truncate>
              {upload.name}
            </Text>
            {upload.error ? (
              <Text size="xs" c="red" data-testid="upload-error">
                {upload.error}
              </Text>
            ) : (
              <Progress
                value={Math.round(upload.progress * 100)}
                size="sm"
                aria-label={t('Uploading {{name}}', { name: upload.name })}
              />
            )}
          </Stack>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="sm"
            onClick={() => onCancel(upload.key)}
            aria-label={upload.error ? t('Dismiss') : t('Cancel upload')}
            data-testid="upload-cancel"
          >
            <IconX size={14} />
          </ActionIcon>
        </Group>
      ))}
    </Stack>
  );
}

import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconPaperclip } from '@tabler/icons-react';
import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useAttachments, type TFilesTarget } from '../api';
import { useUploads } from '../use-uploads';
import { AttachmentList } from './attachment-list';
import { UploadQueue } from './upload-queue';

/** The files of a drag event, if it carries any. */
const draggedFiles = (event: DragEvent) => [...event.dataTransfer.files];
const carriesFiles = (event: DragEvent) => [...event.dataTransfer.types].includes('Files');

/**
 * The files of a task or a unit (not those of its comments, shown under each comment): attach with
 * the picker or by dropping files anywhere on the panel, several at once.
 */
export function FilesPanel({ target, canAttach }: { target: TFilesTarget; canAttach: boolean }) {
  const { t } = useTranslation();
  const list = useAttachments(target);
  const { uploads, start, cancel } = useUploads();
  const picker = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const files = (list.data ?? []).filter((file) => file.comment === null);

  const drop = (event: DragEvent) => {
    if (!canAttach || !carriesFiles(event)) return;
    event.preventDefault();
    setOver(false);
    void start(target, draggedFiles(event));
  };
  return (
    <Stack
      gap="xs"
      data-testid="files-panel"
      data-count={files.length}
      data-over={over || undefined}
      onDragOver={(event) => {
        if (!canAttach || !carriesFiles(event)) return;
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      style={{
        outline: over ? '2px dashed var(--mantine-primary-color-filled)' : undefined,
        outlineOffset: 4,
        borderRadius: 4,
      }}
    >
      <Group justify="space-between">
        <Title order={4}>
          {t('Files')}
          {files.length ? (
            <Text span c="dimmed" fw={400} ml={6}>
              {files.length}
            </Text>
          ) : null}
        </Title>
        {canAttach ? (
          <>
            <Button
              variant="light"
              size="xs"
              leftSection={<IconPaperclip size={14} />}
              onClick={() => picker.current?.click()}
              data-testid="files-attach"
            >
              {t('Attach files')}
            </Button>
            <input
              ref={picker}
              type="file"
              multiple
              hidden
              data-testid="files-input"
              onChange={(event) => {
                const chosen = [...(event.currentTarget.files ?? [])];
                event.currentTarget.value = '';
                if (chosen.length) void start(target, chosen);
              }}
            />
          </>
        ) : null}
      </Group>
      <UploadQueue uploads={uploads} onCancel={cancel} />
      {files.length === 0 && uploads.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="files-empty">
          {canAttach ? t('No files yet. Drop files here or attach them.') : t('No files yet.')}
        </Text>
      ) : (
        <AttachmentList files={files} />
      )}
    </Stack>
  );
}

import { ActionIcon, Anchor, Center, Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconDownload, IconFile, IconFileTypePdf, IconPhoto, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TAttachment } from '@stageline/shared';
import { showToast } from '../../../shared/ui/toast';
import { useDeleteAttachment } from '../api';
import { Lightbox } from './lightbox';

/** A size in the person's units: 512 B, 12 KB, 3.4 MB. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * In place of an image's thumbnail while the server makes it (a live event refreshes the list when it
 * is ready), or when it made none (too large to decode): the list never loads the whole image.
 */
function NoThumbnail({ pending }: { pending: boolean }) {
  const { t } = useTranslation();
  return (
    <Center
      h={96}
      bg="var(--mantine-color-default-hover)"
      style={{ borderRadius: 4 }}
      data-testid={pending ? 'thumbnail-pending' : 'thumbnail-none'}
    >
      <Stack gap={4} align="center">
        <IconPhoto size={28} stroke={1.5} aria-hidden />
        {pending ? (
          <Text size="xs" c="dimmed">
            {t('Preparing the preview')}
          </Text>
        ) : null}
      </Stack>
    </Center>
  );
}

function FileCard({ file, onOpen }: { file: TAttachment; onOpen: (file: TAttachment) => void }) {
  const { t } = useTranslation();
  const remove = useDeleteAttachment();
  const del = () =>
    remove.mutate(file, {
      onSuccess: () => showToast({ kind: 'success', message: t('File deleted') }),
      onError: () => showToast({ kind: 'error', message: t('Data was not saved') }),
    });
  const label = (
    <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
      <Text size="sm" truncate title={file.name}>
        {file.name}
      </Text>
      <Text size="xs" c="dimmed">
        {formatSize(file.size)}
        {file.author ? ` · ${file.author.name}` : ''}
      </Text>
    </Stack>
  );
  return (
    <Paper
      withBorder
      p={6}
      radius="sm"
      data-testid="attachment"
      data-attachment-id={file.id}
      data-preview={file.preview ?? 'download'}
    >
      <Stack gap={6}>
        {file.preview === 'image' ? (
          <UnstyledButton
            onClick={() => onOpen(file)}
            aria-label={t('Open {{name}}', { name: file.name })}
            data-testid="attachment-open"
          >
            {file.thumbnail_url ? (
              <img
                src={file.thumbnail_url}
                alt={file.name}
                loading="lazy"
                style={{ display: 'block', maxWidth: '100%', maxHeight: 160, borderRadius: 4 }}
              />
            ) : (
              <NoThumbnail pending={file.thumbnail_pending} />
            )}
          </UnstyledButton>
        ) : file.preview === 'video' ? (
          <video
            src={file.content_url}
            controls
            preload="metadata"
            style={{ display: 'block', width: '100%', maxHeight: 240, borderRadius: 4 }}
            data-testid="attachment-video"
          />
        ) : null}
        <Group gap={6} wrap="nowrap">
          {file.preview === 'pdf' ? (
            <IconFileTypePdf size={20} stroke={1.5} />
          ) : file.preview === null ? (
            <IconFile size={20} stroke={1.5} />
          ) : null}
          {file.preview === 'pdf' ? (
            <Anchor href={file.content_url} target="_blank" rel="noopener" style={{ minWidth: 0, flex: 1 }}>
              {label}
            </Anchor>
          ) : (
            label
          )}
          <ActionIcon
            component="a"
            href={file.content_url}
            download={file.name}
            variant="subtle"
            color="gray"
            size="sm"
            aria-label={t('Download {{name}}', { name: file.name })}
            data-testid="attachment-download"
          >
            <IconDownload size={16} />
          </ActionIcon>
          {file.abilities.delete ? (
            <ActionIcon
              variant="subtle"
              color="red"
              size="sm"
              onClick={del}
              loading={remove.isPending}
              aria-label={t('Delete {{name}}', { name: file.name })}
              data-testid="attachment-delete"
            >
              <IconTrash size={16} />
            </ActionIcon>
          ) : null}
        </Group>
      </Stack>
    </Paper>
  );
}

/** Files as cards: images open in the lightbox, videos play in place, PDFs open in a tab, the rest download. */
export function AttachmentList({ files }: { files: TAttachment[] }) {
  const [open, setOpen] = useState<TAttachment | null>(null);
  if (files.length === 0) return null;
  return (
    <>
      <div
        style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))', gap: 8 }}
        data-testid="attachment-list"
      >
        {files.map((file) => (
          <FileCard key={file.id} file={file} onOpen={setOpen} />
        ))}
      </div>
      <Lightbox file={open} onClose={() => setOpen(null)} />
    </>
  );
}

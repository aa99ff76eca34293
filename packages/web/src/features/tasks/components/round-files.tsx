import { Anchor, Button, Group, Text } from '@mantine/core';
import { IconPaperclip } from '@tabler/icons-react';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { TAttachment, TTask } from '@stageline/shared';
import { UploadQueue, useAttachments, useUploads } from '../../attachments';

/** The files of the task (and its comments) that go with a round (docs/files.md). */
export function useRoundFiles(taskId: number) {
  const files = useAttachments({ task: taskId }).data ?? [];
  return (round: number | null | undefined): TAttachment[] =>
    round === null || round === undefined ? [] : files.filter((file) => file.round === round);
}

/**
 * Beside Accept and Reject: what this round is about. The files themselves are listed once, in the
 * task's files or under their comment (decision 198); here each name is a link to its card there.
 */
export function CurrentRoundFiles({ task }: { task: TTask }) {
  const { t } = useTranslation();
  const ofRound = useRoundFiles(task.id);
  const round = task.iteration?.number;
  const files = ofRound(round);
  if (!task.abilities.review || files.length === 0) return null;
  const show = (id: number) => {
    const card = document.querySelector<HTMLElement>(`[data-testid="attachment"][data-attachment-id="${id}"]`);
    card?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    card?.querySelector<HTMLElement>('button, a')?.focus({ preventScroll: true });
  };
  return (
    <Group gap={6} data-testid="task-round-files">
      <IconPaperclip size={14} aria-hidden />
      <Text size="sm" fw={600}>
        {t('Files of round {{number}}', { number: round })}:
      </Text>
      {files.map((file) => (
        <Anchor
          key={file.id}
          component="button"
          type="button"
          size="sm"
          onClick={() => show(file.id)}
          data-testid="task-round-file"
        >
          {file.name}
        </Anchor>
      ))}
    </Group>
  );
}

/** "Here is v3": attach files and submit in one go; the submit runs once every file is stored. */
export function SubmitWithFiles({ task, onSubmit }: { task: TTask; onSubmit: () => Promise<boolean> }) {
  const { t } = useTranslation();
  const picker = useRef<HTMLInputElement>(null);
  const { uploads, start, cancel } = useUploads();
  return (
    <>
      <Button
        variant="light"
        leftSection={<IconPaperclip size={16} />}
        onClick={() => picker.current?.click()}
        loading={uploads.some((u) => u.error === null)}
        data-testid="task-submit-files"
      >
        {t('Submit with files')}
      </Button>
      <input
        ref={picker}
        type="file"
        multiple
        hidden
        data-testid="task-submit-files-input"
        onChange={(event) => {
          const chosen = [...(event.currentTarget.files ?? [])];
          event.currentTarget.value = '';
          if (chosen.length === 0) return;
          void start({ task: task.id }, chosen).then((stored) => {
            if (stored.length === chosen.length) void onSubmit();
          });
        }}
      />
      {uploads.length ? (
        <div style={{ flexBasis: '100%' }}>
          <UploadQueue uploads={uploads} onCancel={cancel} />
        </div>
      ) : null}
    </>
  );
}

/** The names of a round's files in the history, each a link to the file. */
export function HistoryFiles({ files }: { files: TAttachment[] }) {
  const { t } = useTranslation();
  if (files.length === 0) return null;
  return (
    <Group gap={6} mt={4} data-testid="task-history-files">
      <IconPaperclip size={14} aria-label={t('Files')} />
      {files.map((file) => (
        <Anchor key={file.id} href={file.content_url} target="_blank" rel="noopener" size="sm">
          {file.name}
        </Anchor>
      ))}
    </Group>
  );
}

import { ActionIcon, Button, Group, Menu, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { IconDots, IconEdit, IconTrash } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TComment } from '@stageline/shared';
import { useDates } from '../../../shared/i18n/use-dates';
import { showToast } from '../../../shared/ui/toast';
import { UserAvatar } from '../../auth';
import type { TMember } from '../../workspaces';
import { useDeleteComment, useUpdateComment } from '../api';
import { CommentComposer } from './comment-composer';
import { CommentMarkdown } from './comment-markdown';
import classes from './comments.module.css';

/** A comment longer than this (characters or lines) shows folded, with "Show more" (decision 191). */
export const FoldLimits = { chars: 1200, lines: 16 } as const;

export function isLongComment(text: string): boolean {
  return text.length > FoldLimits.chars || text.split('\n').length > FoldLimits.lines;
}

/** A comment's text, folded to a few lines when it is long, with the button that unfolds it. */
function CommentBody({ comment }: { comment: TComment }) {
  const { t } = useTranslation();
  const long = isLongComment(comment.text);
  const [open, setOpen] = useState(false);
  const markdown = <CommentMarkdown text={comment.text} usernames={comment.mentions.map((m) => m.username)} />;
  if (!long) return markdown;
  return (
    <Stack gap={2} align="flex-start" data-testid="comment-folded" data-open={open}>
      <div className={open ? undefined : classes.folded} style={{ width: '100%' }}>
        {markdown}
      </div>
      <Button
        variant="subtle"
        size="compact-xs"
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        data-testid="comment-fold-toggle"
      >
        {open ? t('Show less') : t('Show more')}
      </Button>
    </Stack>
  );
}

/** One comment: author, calendar-style time, the edited marker, its text, and the owner's actions. */
export function CommentItem({
  comment,
  canEdit,
  canDelete,
  members,
  files,
}: {
  comment: TComment;
  /** The comment's files (a list of the files module). */
  files?: ReactNode;
  canEdit: boolean;
  canDelete: boolean;
  members: TMember[];
}) {
  const { t } = useTranslation();
  const { formatCalendar, formatTime } = useDates();
  const [editing, setEditing] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const update = useUpdateComment();
  const remove = useDeleteComment();
  const when = (value: string) => `${formatCalendar(value)}, ${formatTime(value)}`;
  const author = comment.author;

  const save = () => {
    if (editing === null) return;
    update.mutate(
      { id: comment.id, text: editing },
      {
        onSuccess: () => {
          setEditing(null);
          showToast({ kind: 'success', message: t('Saved') });
        },
        onError: () => showToast({ kind: 'error', message: t('Data was not saved') }),
      },
    );
  };

  const confirmDelete = () =>
    remove.mutate(comment, {
      onSuccess: () => {
        setConfirming(false);
        showToast({ kind: 'success', message: t('Deleted') });
      },
      onError: () => showToast({ kind: 'error', message: t('Data was not saved') }),
    });

  return (
    <Group
      align="flex-start"
      gap="sm"
      wrap="nowrap"
      className={classes.comment}
      data-testid="comment"
      data-id={comment.id}
    >
      <UserAvatar
        user={{ first_name: author?.name ?? '?', last_name: '', username: author?.username ?? '?', avatar: null }}
        size={32}
      />
      <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
        <Group gap={6} wrap="nowrap" justify="space-between">
          <Group gap={6} wrap="wrap" style={{ minWidth: 0 }}>
            <Text size="sm" fw={600} data-testid="comment-author">
              {author?.name ?? t('Deleted user')}
            </Text>
            <Text size="xs" c="dimmed" data-testid="comment-time">
              {when(comment.created_at)}
            </Text>
            {comment.edited_at ? (
              <Tooltip label={when(comment.edited_at)}>
                <Text size="xs" c="dimmed" fs="italic" data-testid="comment-edited">
                  {t('(edited)')}
                </Text>
              </Tooltip>
            ) : null}
          </Group>
          {(canEdit || canDelete) && editing === null ? (
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <ActionIcon variant="subtle" size="sm" aria-label={t('Comment actions')} data-testid="comment-menu">
                  <IconDots size={16} />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                {canEdit ? (
                  <Menu.Item
                    leftSection={<IconEdit size={14} />}
                    onClick={() => setEditing(comment.text)}
                    data-testid="comment-edit"
                  >
                    {t('Edit')}
                  </Menu.Item>
                ) : null}
                {canDelete ? (
                  <Menu.Item
                    color="red"
                    leftSection={<IconTrash size={14} />}
                    onClick={() => setConfirming(true)}
                    data-testid="comment-delete"
                  >
                    {t('Delete')}
                  </Menu.Item>
                ) : null}
              </Menu.Dropdown>
            </Menu>
          ) : null}
        </Group>
        {editing !== null ? (
          <CommentComposer
            value={editing}
            onChange={setEditing}
            onSubmit={save}
            onCancel={() => setEditing(null)}
            submitting={update.isPending}
            submitLabel={t('Save')}
            members={members}
            testId="comment-editor"
            autoFocus
          />
        ) : (
          <CommentBody comment={comment} />
        )}
        {files}
      </Stack>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t('Delete this comment?')} centered>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={() => setConfirming(false)}>
            {t('Cancel')}
          </Button>
          <Button color="red" onClick={confirmDelete} loading={remove.isPending} data-testid="comment-delete-confirm">
            {t('Delete')}
          </Button>
        </Group>
      </Modal>
    </Group>
  );
}

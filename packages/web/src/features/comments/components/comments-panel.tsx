import { Button, Center, CloseButton, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconMessageCircle, IconPaperclip } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../shared/ui/toast';
import { AttachmentList, UploadQueue, useAttachments, useUploads } from '../../attachments';
import { useCurrentUser } from '../../auth';
import { useWorkspaceAbilities } from '../../projects';
import { useMembers } from '../../workspaces';
import { flattenThread, useCommentThread, useCreateComment, type TCommentTarget } from '../api';
import { CommentComposer } from './comment-composer';
import { CommentItem } from './comment-item';
import { purgeStaleDrafts, readDraft, writeDraft } from '../lib/drafts';
import { LoadError } from '../../../shared/ui/load-error';

/** A pasted screenshot is called `image.png` by every browser: give it the time it was taken. */
function named(file: File): File {
  if (file.name && file.name !== 'image.png') return file;
  const stamp = new Date().toISOString().slice(0, 19).replace('T', ' ').replace(/:/g, '-');
  const extension = file.type.split('/')[1] ?? 'png';
  return new File([file], `Screenshot ${stamp}.${extension}`, { type: file.type });
}

let purged = false;
/** Old drafts go the first time a comment thread shows in this page's life. */
function purgeOnce() {
  if (purged) return;
  purged = true;
  purgeStaleDrafts();
}

/**
 * The comments of a task or a unit (docs/rules.md §Web): oldest first with 'Show earlier' for long
 * threads, a composer for anyone who may comment, edit and delete for the author, delete for Admin+.
 * New comments of others arrive through the live stream (the notifications feature).
 */
export function CommentsPanel({ target, workspaceId }: { target: TCommentTarget; workspaceId: number }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const abilities = useWorkspaceAbilities(workspaceId);
  const members = useMembers(workspaceId).data ?? [];
  const thread = useCommentThread(target);
  const create = useCreateComment(target);
  // The draft outlives the screen (decision 191): read when the target shows, written as it is typed.
  const [draft, setDraftState] = useState(() => readDraft(target));
  const targetKey = JSON.stringify(target);
  const [shownFor, setShownFor] = useState(targetKey);
  if (shownFor !== targetKey) {
    setShownFor(targetKey);
    setDraftState(readDraft(target));
  }
  const setDraft = (text: string) => {
    setDraftState(text);
    writeDraft(target, text);
  };
  useEffect(() => {
    purgeOnce();
  }, []);
  const [pending, setPending] = useState<File[]>([]);
  const files = useAttachments(target).data ?? [];
  const uploads = useUploads();

  const comments = flattenThread(thread.data);
  const total = thread.data?.pages.at(-1)?.count ?? comments.length;
  const moderate = abilities?.moderate_comments ?? false;

  const send = () => {
    const text = draft.trim();
    if (!text || create.isPending) return;
    create.mutate(text, {
      onSuccess: (comment) => {
        setDraft('');
        if (pending.length) void uploads.start({ comment: comment.id }, pending);
        setPending([]);
        showToast({ kind: 'success', message: t('Posted') });
      },
      onError: () => showToast({ kind: 'error', message: t('Data was not saved') }),
    });
  };

  return (
    <Stack gap="sm" data-testid="comments-panel" data-count={total}>
      <Title order={4}>
        {t('Comments')}
        {total ? (
          <Text span c="dimmed" fw={400} ml={6} data-testid="comments-count">
            {total}
          </Text>
        ) : null}
      </Title>
      {thread.isPending ? (
        <Center py="md">
          <Loader size="sm" />
        </Center>
      ) : thread.isError ? (
        <LoadError retry={thread} testId="comments-error" />
      ) : (
        <>
          {thread.hasPreviousPage ? (
            <Button
              variant="subtle"
              size="xs"
              onClick={() => void thread.fetchPreviousPage()}
              loading={thread.isFetchingPreviousPage}
              data-testid="comments-earlier"
            >
              {t('Show earlier comments')}
            </Button>
          ) : null}
          {comments.length === 0 ? (
            <Stack align="center" gap={4} py="md" data-testid="comments-empty">
              <IconMessageCircle size={28} stroke={1.4} color="var(--mantine-color-dimmed)" />
              <Text size="sm" c="dimmed">
                {t('No comments yet. Start the conversation.')}
              </Text>
            </Stack>
          ) : (
            <Stack gap="sm" data-testid="comments-list">
              {comments.map((comment) => {
                const own = comment.author?.id === user.id;
                return (
                  <CommentItem
                    key={comment.id}
                    comment={comment}
                    canEdit={own}
                    canDelete={own || moderate}
                    members={members}
                    files={<AttachmentList files={files.filter((file) => file.comment === comment.id)} />}
                  />
                );
              })}
            </Stack>
          )}
        </>
      )}
      {(abilities?.comment ?? false) ? (
        <CommentComposer
          value={draft}
          onChange={setDraft}
          onSubmit={send}
          submitting={create.isPending}
          submitLabel={t('Send')}
          members={members}
          testId="comment-composer"
          onPasteFiles={
            (abilities?.attach ?? false) ? (pasted) => setPending((list) => [...list, ...pasted.map(named)]) : undefined
          }
          attachments={
            <Stack gap={4} mt={pending.length || uploads.uploads.length ? 'xs' : 0}>
              {pending.map((file, index) => (
                <Group key={`${file.name}-${index}`} gap={6} data-testid="comment-pending-file">
                  <IconPaperclip size={14} />
                  <Text size="xs">{file.name}</Text>
                  <CloseButton
                    size="xs"
                    aria-label={t('Remove {{name}}', { name: file.name })}
                    onClick={() => setPending((list) => list.filter((_, i) => i !== index))}
                  />
                </Group>
              ))}
              <UploadQueue uploads={uploads.uploads} onCancel={uploads.cancel} />
            </Stack>
          }
        />
      ) : null}
    </Stack>
  );
}

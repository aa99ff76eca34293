import { Alert, Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { IconMessageCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { can } from '@stageline/shared';
import { showToast } from '../../../shared/ui/toast';
import { useCurrentUser } from '../../auth';
import { useWorkspaceRole } from '../../projects';
import { useMembers } from '../../workspaces';
import { flattenThread, useCommentThread, useCreateComment, type TCommentTarget } from '../api';
import { CommentComposer } from './comment-composer';
import { CommentItem } from './comment-item';

/**
 * The comments of a task or a unit (docs/rules.md §Web): oldest first with 'Show earlier' for long
 * threads, a composer for anyone who may comment, edit and delete for the author, delete for Admin+.
 * New comments of others arrive through the live stream (the notifications feature).
 */
export function CommentsPanel({ target, workspaceId }: { target: TCommentTarget; workspaceId: number }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const role = useWorkspaceRole(workspaceId);
  const members = useMembers(workspaceId).data ?? [];
  const thread = useCommentThread(target);
  const create = useCreateComment(target);
  const [draft, setDraft] = useState('');

  const comments = flattenThread(thread.data);
  const total = thread.data?.pages.at(-1)?.count ?? comments.length;
  const moderate = can(role, 'comment', 'moderate');

  const send = () => {
    const text = draft.trim();
    if (!text || create.isPending) return;
    create.mutate(text, {
      onSuccess: () => {
        setDraft('');
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
        <Alert color="red" data-testid="comments-error">
          {t('Error while loading data')}
        </Alert>
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
                  />
                );
              })}
            </Stack>
          )}
        </>
      )}
      {can(role, 'comment', 'create') ? (
        <CommentComposer
          value={draft}
          onChange={setDraft}
          onSubmit={send}
          submitting={create.isPending}
          submitLabel={t('Send')}
          members={members}
          testId="comment-composer"
        />
      ) : null}
    </Stack>
  );
}

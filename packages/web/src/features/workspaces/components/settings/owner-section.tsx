import { Button, Code, Divider, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconCrown, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, type TWorkspace } from '@stageline/shared';
import { showToast } from '../../../../shared/ui/toast';
import { useDelegateOwnership, useDeleteWorkspace, useWorkspaceUsers } from '../../api';
import { forgetCurrentWorkspace } from '../../current-workspace';
import { userLabel } from '../../lib/bulk';
import { shownByTransport } from '../../../../shared/api';
import { isServerError, reportFailure } from '../../lib/report';
import { ConfirmModal } from '../confirm-modal';
import { Section } from '../../../../shared/ui/section';

/** What only the owner may do: hand the workspace over, or delete it. */
export function OwnerSection({ workspace, meId }: { workspace: TWorkspace; meId: number }) {
  const { t } = useTranslation();
  return (
    <Section title={t('Owner actions')} testId="workspace-owner-section">
      {workspace.abilities.delegate ? <Delegate workspace={workspace} meId={meId} /> : null}
      <Divider />
      {workspace.abilities.delete ? <DeleteWorkspace workspace={workspace} /> : null}
    </Section>
  );
}

/** Ownership goes only to a member who accepted; I become an Admin (docs/rules.md §Roles). */
function Delegate({ workspace, meId }: { workspace: TWorkspace; meId: number }) {
  const { t } = useTranslation();
  const users = useWorkspaceUsers(workspace.id);
  const delegate = useDelegateOwnership(workspace.id);
  const [target, setTarget] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const candidates = (users.data ?? []).filter(
    (user) => user.status === 'accepted' && user.user_id !== null && user.user_id !== meId,
  );
  const chosen = candidates.find((user) => String(user.user_id) === target);

  const confirm = async () => {
    if (!chosen?.user_id) return;
    try {
      await delegate.mutateAsync(chosen.user_id);
      setConfirming(false);
      setTarget(null);
      showToast({ kind: 'success', message: t('Ownership delegated to {{user}}', { user: userLabel(chosen) }) });
    } catch (error) {
      setConfirming(false);
      reportFailure(error, t('Workspace ownership deligated, server error'));
    }
  };

  return (
    <Stack gap="xs">
      <Text size="sm" fw={600}>
        {t('Delegate ownership')}
      </Text>
      <Text size="sm" c="dimmed">
        {t('The new owner must have accepted the invite. You will become an Admin.')}
      </Text>
      <Group gap="xs" align="flex-end">
        <Select
          aria-label={t('New owner')}
          placeholder={candidates.length ? t('Choose a member') : t('No members who accepted the invite')}
          data={candidates.map((user) => ({ value: String(user.user_id), label: userLabel(user) }))}
          value={target}
          onChange={setTarget}
          disabled={candidates.length === 0}
          searchable
          w={260}
          data-testid="delegate-select"
          comboboxProps={{ withinPortal: true }}
        />
        <Button
          variant="default"
          leftSection={<IconCrown size={16} />}
          disabled={!chosen}
          onClick={() => setConfirming(true)}
          data-testid="delegate-submit"
        >
          {t('Delegate')}
        </Button>
      </Group>
      <ConfirmModal
        opened={confirming}
        title={t('Delegate ownership')}
        confirmLabel={t('Delegate')}
        danger
        loading={delegate.isPending}
        onConfirm={() => void confirm()}
        onClose={() => setConfirming(false)}
        testId="delegate-confirm"
      >
        {t('Make {{user}} the owner of {{workspace}}? You will become an Admin.', {
          user: chosen ? userLabel(chosen) : '',
          workspace: workspace.name,
        })}
      </ConfirmModal>
    </Stack>
  );
}

/** Deleting asks to type the shown confirmation text, the workspace's name (docs/rules.md §Roles). */
function DeleteWorkspace({ workspace }: { workspace: TWorkspace }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const remove = useDeleteWorkspace(workspace.id);
  const [opened, setOpened] = useState(false);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const confirmation = workspace.name;

  const close = () => {
    setOpened(false);
    setText('');
    setError(null);
  };

  const submit = async () => {
    if (text !== confirmation) {
      setError(t('Confirmation text is invalid'));
      return;
    }
    try {
      await remove.mutateAsync();
      forgetCurrentWorkspace(workspace.id);
      close();
      showToast({ kind: 'success', message: t('Workspace deleted') });
      await navigate(paths.app.workspaces());
    } catch (failure) {
      if (isServerError(failure)) {
        if (!shownByTransport(failure))
          showToast({ kind: 'error', message: t('Workspace was not deleted, server error') });
      } else reportFailure(failure, t('Workspace was not deleted'));
    }
  };

  return (
    <Stack gap="xs">
      <Text size="sm" fw={600}>
        {t('Delete workspace')}
      </Text>
      <Text size="sm" c="dimmed">
        {t('Deletes the workspace with all its projects, pipelines and units. This cannot be undone.')}
      </Text>
      <Group>
        <Button
          color="red"
          leftSection={<IconTrash size={16} />}
          onClick={() => setOpened(true)}
          data-testid="delete-open"
        >
          {t('Delete workspace')}
        </Button>
      </Group>
      <Modal opened={opened} onClose={close} title={t('Delete workspace')} centered data-testid="delete-modal">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
          noValidate
        >
          <Stack gap="sm">
            <Text size="sm">{t('To confirm, type the text below:')}</Text>
            <Code block data-testid="delete-confirm-text">
              {confirmation}
            </Code>
            <TextInput
              aria-label={t('Confirmation text')}
              value={text}
              onChange={(event) => {
                setText(event.currentTarget.value);
                setError(null);
              }}
              error={error}
              autoComplete="off"
              data-autofocus
              data-testid="delete-confirm-input"
            />
            <Group justify="flex-end" gap="xs">
              <Button variant="default" onClick={close}>
                {t('Cancel')}
              </Button>
              <Button type="submit" color="red" loading={remove.isPending} data-testid="delete-confirm-submit">
                {t('Delete')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}

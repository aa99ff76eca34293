import { ActionIcon, Badge, Button, Checkbox, Group, Select, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconMailForward, IconTrash, IconX } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, type TAssignableRole, type TWorkspace, type TWorkspaceUser } from '@stageline/shared';
import { showToast } from '../../../../shared/ui/toast';
import { useCancelInvite, useRemoveUsers, useResendInvite, useSetRoles, useWorkspaceUsers } from '../../api';
import { forgetCurrentWorkspace } from '../../current-workspace';
import { reportBulkResult, userLabel, type TBulkAction } from '../../lib/bulk';
import { reportFailure } from '../../lib/report';
import { assignableRoleOptions, isAssignableRole } from '../../lib/roles';
import { ConfirmModal } from '../confirm-modal';
import { RoleBadge } from '../role-badge';
import { Section } from '../../../../shared/ui/section';
import { LoadError } from '../../../../shared/ui/load-error';

type TPending = { action: TBulkAction; users: number[]; role: TAssignableRole };

const order = { owner: 0, admin: 1, member: 2, guest: 3 } as const;
const rowKey = (user: TWorkspaceUser) => (user.user_id !== null ? `u${user.user_id}` : `i${user.invite_id}`);

/**
 * The team: members and pending invites, with bulk role change and removal of selected members.
 * What I may select and do is what the server sent: the workspace's and each member's `abilities`;
 * selecting myself asks first, since I may lose edit access (docs/rules.md §Roles).
 */
export function TeamSection({ workspace, meId }: { workspace: TWorkspace; meId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const users = useWorkspaceUsers(workspace.id);
  const setRoles = useSetRoles(workspace.id);
  const removeUsers = useRemoveUsers(workspace.id);
  const [selected, setSelected] = useState<number[]>([]);
  const [role, setRole] = useState<TAssignableRole>('member');
  const [confirming, setConfirming] = useState<TPending | null>(null);

  const canChangeRoles = workspace.abilities.change_roles;
  const canRemove = workspace.abilities.remove_users;
  const canInvite = workspace.abilities.invite;
  const bulk = canChangeRoles || canRemove;

  const rows = useMemo(
    () =>
      [...(users.data ?? [])].sort(
        (a, b) =>
          Number(a.status === 'pending') - Number(b.status === 'pending') ||
          order[a.role] - order[b.role] ||
          userLabel(a).localeCompare(userLabel(b)),
      ),
    [users.data],
  );
  const selectable = (user: TWorkspaceUser): user is TWorkspaceUser & { user_id: number } =>
    user.status === 'accepted' && user.user_id !== null && (user.abilities.remove || user.abilities.change_role);
  const selectableIds = rows.filter(selectable).map((user) => user.user_id);
  const chosen = selected.filter((id) => selectableIds.includes(id));
  const allChosen = selectableIds.length > 0 && chosen.length === selectableIds.length;

  const toggle = (id: number, on: boolean) =>
    setSelected((old) => (on ? [...old.filter((x) => x !== id), id] : old.filter((x) => x !== id)));

  const start = (action: TBulkAction) => {
    const pending = { action, users: chosen, role };
    if (chosen.includes(meId)) setConfirming(pending);
    else void run(pending);
  };

  const run = async ({ action, users: ids, role: nextRole }: TPending) => {
    setConfirming(null);
    const all = users.data ?? [];
    try {
      const result =
        action === 'remove'
          ? await removeUsers.mutateAsync(ids)
          : await setRoles.mutateAsync({ users: ids, role: nextRole });
      reportBulkResult(action, result, all, t);
      const failedIds = result.errors.map((error) => error.user);
      setSelected((old) => old.filter((id) => failedIds.includes(id)));
      if (action === 'remove' && ids.includes(meId) && !failedIds.includes(meId)) {
        forgetCurrentWorkspace(workspace.id);
        await navigate(paths.app.workspaces());
      }
    } catch (error) {
      reportFailure(
        error,
        action === 'remove'
          ? t('{{count}} users not removed', { count: ids.length })
          : t('{{count}} users not updated', { count: ids.length }),
      );
    }
  };

  const busy = setRoles.isPending || removeUsers.isPending;

  return (
    <Section title={t('Team')} testId="workspace-team-section">
      {bulk ? (
        <Group gap="xs" align="flex-end" data-testid="bulk-actions">
          <Text size="sm" c="dimmed" mr="auto" data-testid="bulk-selected-count">
            {t('Selected: {{count}}', { count: chosen.length })}
          </Text>
          {canChangeRoles ? (
            <>
              <Select
                aria-label={t('New role')}
                data={assignableRoleOptions(t)}
                value={role}
                onChange={(value) => isAssignableRole(value) && setRole(value)}
                allowDeselect={false}
                w={140}
                size="sm"
                data-testid="bulk-role-select"
                comboboxProps={{ withinPortal: true }}
              />
              <Button
                variant="default"
                disabled={chosen.length === 0 || busy}
                loading={setRoles.isPending}
                onClick={() => start('set_roles')}
                data-testid="bulk-role-apply"
              >
                {t('Change role')}
              </Button>
            </>
          ) : null}
          {canRemove ? (
            <Button
              color="red"
              variant="light"
              leftSection={<IconTrash size={16} />}
              disabled={chosen.length === 0 || busy}
              loading={removeUsers.isPending}
              onClick={() => start('remove')}
              data-testid="bulk-remove"
            >
              {t('Remove')}
            </Button>
          ) : null}
        </Group>
      ) : null}
      {users.isError ? (
        <LoadError retry={users} />
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing="xs" highlightOnHover data-testid="team-table">
            <Table.Thead>
              <Table.Tr>
                {bulk ? (
                  <Table.Th w={40}>
                    <Checkbox
                      aria-label={t('Select all')}
                      checked={allChosen}
                      indeterminate={chosen.length > 0 && !allChosen}
                      disabled={selectableIds.length === 0}
                      onChange={(event) => setSelected(event.currentTarget.checked ? selectableIds : [])}
                      data-testid="team-select-all"
                    />
                  </Table.Th>
                ) : null}
                <Table.Th>{t('User')}</Table.Th>
                <Table.Th>{t('Username or e-mail')}</Table.Th>
                <Table.Th>{t('Role')}</Table.Th>
                <Table.Th>{t('Status')}</Table.Th>
                <Table.Th>{t('Invited by')}</Table.Th>
                {canInvite ? <Table.Th w={80} /> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((user) => (
                <TeamRow
                  key={rowKey(user)}
                  workspaceId={workspace.id}
                  user={user}
                  me={user.user_id === meId}
                  bulk={bulk}
                  canInvite={canInvite}
                  selectable={selectable(user)}
                  checked={user.user_id !== null && chosen.includes(user.user_id)}
                  onToggle={(on) => user.user_id !== null && toggle(user.user_id, on)}
                />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ConfirmModal
        opened={confirming !== null}
        title={confirming?.action === 'remove' ? t('Remove yourself?') : t('Change your own role?')}
        confirmLabel={confirming?.action === 'remove' ? t('Remove') : t('Change role')}
        danger
        loading={busy}
        onConfirm={() => confirming && void run(confirming)}
        onClose={() => setConfirming(null)}
        testId="self-confirm"
      >
        {confirming?.action === 'remove'
          ? t('You selected yourself. After removal you lose access to this workspace.')
          : t('You selected yourself. With a lower role you may lose edit access to this workspace.')}
      </ConfirmModal>
    </Section>
  );
}

function TeamRow({
  workspaceId,
  user,
  me,
  bulk,
  canInvite,
  selectable,
  checked,
  onToggle,
}: {
  workspaceId: number;
  user: TWorkspaceUser;
  me: boolean;
  bulk: boolean;
  canInvite: boolean;
  selectable: boolean;
  checked: boolean;
  onToggle: (on: boolean) => void;
}) {
  const { t } = useTranslation();
  const resend = useResendInvite(workspaceId);
  const cancel = useCancelInvite(workspaceId);
  const pending = user.status === 'pending';

  const onResend = async (inviteId: number) => {
    try {
      await resend.mutateAsync(inviteId);
      showToast({ kind: 'success', message: t('Invite sent again') });
    } catch (error) {
      reportFailure(error, t('Invite was not sent'));
    }
  };
  const onCancel = async (inviteId: number) => {
    try {
      await cancel.mutateAsync(inviteId);
      showToast({ kind: 'success', message: t('Invite cancelled') });
    } catch (error) {
      reportFailure(error, t('Invite was not cancelled'));
    }
  };

  return (
    <Table.Tr
      data-testid="team-row"
      data-username={user.username ?? user.email ?? ''}
      data-status={user.status}
      bg={checked ? 'var(--mantine-primary-color-light)' : undefined}
    >
      {bulk ? (
        <Table.Td>
          <Checkbox
            aria-label={t('Select {{user}}', { user: userLabel(user) })}
            checked={checked}
            disabled={!selectable}
            onChange={(event) => onToggle(event.currentTarget.checked)}
            data-testid="team-select"
          />
        </Table.Td>
      ) : null}
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          <Text size="sm" fw={500}>
            {user.name || '—'}
          </Text>
          {me ? (
            <Badge size="xs" variant="outline" style={{ flexShrink: 0 }} styles={{ label: { overflow: 'visible' } }}>
              {t('You')}
            </Badge>
          ) : null}
        </Group>
      </Table.Td>
      <Table.Td>
        <Stack gap={0}>
          {user.username ? <Text size="sm">@{user.username}</Text> : null}
          {user.email ? (
            <Text size="xs" c="dimmed">
              {user.email}
            </Text>
          ) : null}
        </Stack>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <RoleBadge role={user.role} testId="team-role" />
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <Badge
          color={pending ? 'yellow' : 'teal'}
          variant="dot"
          styles={{ label: { overflow: 'visible' } }}
          data-testid="team-status"
        >
          {pending ? t('Pending') : t('Accepted')}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Text size="sm">
          {user.invited_by === 'link'
            ? user.inviter_name
              ? t('{{name}}, by link', { name: user.inviter_name })
              : t('By link')
            : user.invited_by === 'user'
              ? (user.inviter_name ?? t('By invite'))
              : '—'}
        </Text>
      </Table.Td>
      {canInvite ? (
        <Table.Td>
          {pending && user.invite_id !== null ? (
            <Group gap={4} wrap="nowrap">
              <Tooltip label={t('Resend invite')}>
                <ActionIcon
                  variant="subtle"
                  aria-label={t('Resend invite')}
                  loading={resend.isPending}
                  onClick={() => user.invite_id !== null && void onResend(user.invite_id)}
                  data-testid="team-resend"
                >
                  <IconMailForward size={16} />
                </ActionIcon>
              </Tooltip>
              <Tooltip label={t('Cancel invite')}>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('Cancel invite')}
                  loading={cancel.isPending}
                  onClick={() => user.invite_id !== null && void onCancel(user.invite_id)}
                  data-testid="team-cancel-invite"
                >
                  <IconX size={16} />
                </ActionIcon>
              </Tooltip>
            </Group>
          ) : null}
        </Table.Td>
      ) : null}
    </Table.Tr>
  );
}

import { ActionIcon, Button, ColorInput, Group, Loader, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconTrash, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DefaultTeamColor, ZTeamCreate, type TTeam, type TTeamCreate } from '@stageline/shared';
import { formError } from '../../../shared/lib/form-errors';
import { zodResolver } from '../../../shared/lib/zod-resolver';
import { Section } from '../../../shared/ui/section';
import { showToast } from '../../../shared/ui/toast';
import { addTeamMembers, createTeam, deleteTeam, removeTeamMember, useTeams } from '../api';

/** A member of the workspace who can join a team (from the workspaces feature, passed by the screen). */
export type TTeamCandidate = { id: number; name: string; username: string | null };

/**
 * Workspace settings → Teams (docs/review-rules.md): everyone sees the teams; Admins and the owner
 * create and delete them and add or remove members (`canManage`, from the shared permission table).
 */
export function TeamsSection({
  workspaceId,
  members,
  canManage,
}: {
  workspaceId: number;
  members: TTeamCandidate[];
  canManage: boolean;
}) {
  const { t } = useTranslation();
  const teams = useTeams(workspaceId);
  const form = useForm<TTeamCreate>({
    initialValues: { name: '', color: DefaultTeamColor },
    validate: zodResolver<TTeamCreate>(ZTeamCreate, t),
  });

  const act = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      showToast({ kind: 'success', message: done });
      return true;
    } catch (error) {
      const message = formError(error, { fallback: t('Data was not saved') });
      if (message) showToast({ kind: 'error', message });
      return false;
    }
  };

  const add = async (values: TTeamCreate) => {
    try {
      await createTeam(workspaceId, ZTeamCreate.parse(values));
      showToast({ kind: 'success', message: t('Team created') });
      form.reset();
    } catch (error) {
      const message = formError(error, { fields: ['name', 'color'], setErrors: form.setErrors });
      if (message) showToast({ kind: 'error', message });
    }
  };

  return (
    <Section
      title={t('Teams')}
      description={t('Groups of members that can be assigned or asked to review together.')}
      testId="workspace-teams"
    >
      {canManage ? (
        <form onSubmit={form.onSubmit((values) => void add(values))} noValidate data-testid="team-form">
          <Group align="flex-end" gap="sm">
            <TextInput
              label={t('Team name')}
              required
              style={{ flex: '1 1 200px' }}
              data-testid="team-name"
              {...form.getInputProps('name')}
            />
            <ColorInput
              label={t('Colour')}
              w={140}
              withEyeDropper={false}
              data-testid="team-color"
              {...form.getInputProps('color')}
            />
            <Button type="submit" data-testid="team-create">
              {t('Create team')}
            </Button>
          </Group>
        </form>
      ) : null}
      {teams.isPending ? (
        <Loader size="sm" />
      ) : (teams.data ?? []).length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="teams-empty">
          {t('No teams yet.')}
        </Text>
      ) : (
        <Stack gap="xs">
          {(teams.data ?? []).map((team) => (
            <TeamRow key={team.id} team={team} members={members} canManage={canManage} act={act} />
          ))}
        </Stack>
      )}
    </Section>
  );
}

function TeamRow({
  team,
  members,
  canManage,
  act,
}: {
  team: TTeam;
  members: TTeamCandidate[];
  canManage: boolean;
  act: (work: () => Promise<unknown>, done: string) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const inTeam = new Set(team.members.map((m) => m.id));
  const candidates = members
    .filter((m) => !inTeam.has(m.id))
    .map((m) => ({ value: String(m.id), label: m.name || m.username || String(m.id) }));
  return (
    <Paper withBorder radius="md" p="sm" data-testid="team-row" data-team-name={team.name}>
      <Stack gap={6}>
        <Group justify="space-between" gap="xs">
          <Group gap="xs">
            <span
              aria-hidden
              style={{ width: 12, height: 12, borderRadius: 6, background: team.color, display: 'inline-block' }}
            />
            <Text fw={600}>{team.name}</Text>
            <Text size="sm" c="dimmed">
              {t('{{count}} members', { count: team.members.length })}
            </Text>
          </Group>
          {canManage ? (
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={t('Delete team {{name}}', { name: team.name })}
              onClick={() => void act(() => deleteTeam(team.id), t('Team deleted'))}
              data-testid="team-delete"
            >
              <IconTrash size={16} />
            </ActionIcon>
          ) : null}
        </Group>
        <Group gap={6}>
          {team.members.map((member) => (
            <Group key={member.id} gap={2} data-testid="team-member">
              <Text size="sm">{member.name || member.username}</Text>
              {canManage ? (
                <ActionIcon
                  size="xs"
                  variant="subtle"
                  aria-label={t('Remove {{name}} from the team', { name: member.name || member.username })}
                  onClick={() => void act(() => removeTeamMember(team.id, member.id), t('Removed from the team'))}
                  data-testid="team-member-remove"
                >
                  <IconX size={12} />
                </ActionIcon>
              ) : null}
            </Group>
          ))}
        </Group>
        {canManage && candidates.length > 0 ? (
          <Select
            aria-label={t('Add a member to {{name}}', { name: team.name })}
            placeholder={t('Add a member')}
            data={candidates}
            searchable
            value={null}
            onChange={(value) => {
              if (value) void act(() => addTeamMembers(team.id, [Number(value)]), t('Added to the team'));
            }}
            nothingFoundMessage={t('Nothing found')}
            data-testid="team-add-member"
          />
        ) : null}
      </Stack>
    </Paper>
  );
}

import { Button, Group, Stack } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, type TWorkspace } from '@stageline/shared';
import { PageCard } from '../../../shared/ui/page-card';
import { useCurrentUser } from '../../auth';
import { FileTypesSection } from '../../attachments';
import { TeamsSection } from '../../teams';
import { WebhooksSection } from '../../webhooks';
import { useMembers } from '../members';
import { EditSection } from '../components/settings/edit-section';
import { InviteLinkSection } from '../components/settings/invite-link-section';
import { InviteUsersSection } from '../components/settings/invite-users-section';
import { LeaveWorkspaceButton } from '../components/settings/leave-button';
import { OwnerSection } from '../components/settings/owner-section';
import { Section } from '../../../shared/ui/section';
import { TeamSection } from '../components/settings/team-section';
import { WorkspaceGate } from '../components/workspace-gate';

/**
 * Workspace settings: edit, team, invites, link, owner actions and leaving. Each section shows only
 * when the shared permission table lets my role do it (the server refuses the rest anyway).
 */
export default function WorkspaceSettingsScreen() {
  const { t } = useTranslation();
  return (
    <WorkspaceGate title={t('Workspace settings')}>{(workspace) => <Settings workspace={workspace} />}</WorkspaceGate>
  );
}

function Settings({ workspace }: { workspace: TWorkspace }) {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const { abilities } = workspace;
  const members = useMembers(workspace.id);
  return (
    <PageCard
      title={t('Settings: {{workspace}}', { workspace: workspace.name })}
      actions={
        <Button
          component={Link}
          to={paths.app.workspace(workspace.id)}
          variant="default"
          leftSection={<IconArrowLeft size={16} />}
          data-testid="workspace-open"
        >
          {t('Workspace')}
        </Button>
      }
    >
      <Stack gap="md">
        {abilities.update ? <EditSection key={workspace.id} workspace={workspace} /> : null}
        <TeamSection workspace={workspace} meId={me.id} />
        {abilities.view_teams ? (
          <TeamsSection workspaceId={workspace.id} members={members.data ?? []} canManage={abilities.manage_teams} />
        ) : null}
        {abilities.invite ? <InviteUsersSection workspace={workspace} /> : null}
        {abilities.manage_link ? <InviteLinkSection workspace={workspace} /> : null}
        {abilities.update ? <FileTypesSection workspaceId={workspace.id} /> : null}
        {abilities.manage_webhooks ? <WebhooksSection workspace={workspace} /> : null}
        {abilities.delegate || abilities.delete ? <OwnerSection workspace={workspace} meId={me.id} /> : null}
        {abilities.leave ? (
          <Section title={t('Leave workspace')} testId="workspace-leave-section">
            <Group>
              <LeaveWorkspaceButton workspace={workspace} />
            </Group>
          </Section>
        ) : null}
      </Stack>
    </PageCard>
  );
}

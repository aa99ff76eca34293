import { Button, Group, Stack } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { can, paths, type TWorkspace } from '@stageline/shared';
import { PageCard } from '../../../shared/ui/page-card';
import { useCurrentUser } from '../../auth';
import { WebhooksSection } from '../../webhooks';
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
  const role = workspace.role;
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
        {can(role, 'workspace', 'update') ? <EditSection key={workspace.id} workspace={workspace} /> : null}
        <TeamSection workspace={workspace} meId={me.id} />
        {can(role, 'workspace', 'invite') ? <InviteUsersSection workspace={workspace} /> : null}
        {can(role, 'workspace', 'manage_link') ? <InviteLinkSection workspace={workspace} /> : null}
        {can(role, 'webhook', 'manage') ? <WebhooksSection workspace={workspace} /> : null}
        {can(role, 'workspace', 'delegate') || can(role, 'workspace', 'delete') ? (
          <OwnerSection workspace={workspace} meId={me.id} />
        ) : null}
        {role !== 'owner' && can(role, 'workspace', 'leave') ? (
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

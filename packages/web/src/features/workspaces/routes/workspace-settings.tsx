import { Button, Group, Stack, Tabs } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, type TWorkspace } from '@stageline/shared';
import { PageCard } from '../../../shared/ui/page-card';
import { useCurrentUser } from '../../auth';
import { FileTypesSection } from '../../attachments';
import { AuditLogSection } from '../../audit';
import { TeamsSection } from '../../teams';
import { WebhooksSection } from '../../webhooks';
import { useMembers } from '../members';
import { EditSection } from '../components/settings/edit-section';
import { ReviewSharingSection } from '../components/settings/review-sharing-section';
import { InviteLinkSection } from '../components/settings/invite-link-section';
import { InviteUsersSection } from '../components/settings/invite-users-section';
import { LeaveWorkspaceButton } from '../components/settings/leave-button';
import { OwnerSection } from '../components/settings/owner-section';
import { Section } from '../../../shared/ui/section';
import { TeamSection } from '../components/settings/team-section';
import { WorkspaceGate } from '../components/workspace-gate';

/** The tabs of the workspace settings, in order, each with its URL segment (decision 205). */
export const SettingsTabs = ['general', 'people', 'teams', 'integrations', 'audit-log', 'danger-zone'] as const;
export type TSettingsTab = (typeof SettingsTabs)[number];

/**
 * Workspace settings in tabs, each with its own URL (`/app/workspaces/:id/settings/:tab`, decision
 * 205): General (the workspace's own fields), People (members, invites, the link), Teams,
 * Integrations (webhooks), Audit log (Admins and the Owner) and Danger zone (delegate, delete, leave). A tab shows only when my role
 * may do something in it (the shared permission table; the server refuses the rest anyway), and
 * `/settings` alone opens the first of mine. Each section is the component it was on the long page.
 */
export default function WorkspaceSettingsScreen() {
  const { t } = useTranslation();
  return (
    <WorkspaceGate title={t('Workspace settings')}>{(workspace) => <Settings workspace={workspace} />}</WorkspaceGate>
  );
}

function Settings({ workspace }: { workspace: TWorkspace }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { tab: asked } = useParams();
  const me = useCurrentUser();
  const { abilities } = workspace;
  const members = useMembers(workspace.id);

  const tabs: Partial<Record<TSettingsTab, { label: string; content: ReactNode }>> = {};
  if (abilities.update)
    tabs.general = {
      label: t('General'),
      // More of the workspace's own settings go here, each its own section, below the name.
      content: (
        <>
          <EditSection key={workspace.id} workspace={workspace} />
          <FileTypesSection workspaceId={workspace.id} />
          <ReviewSharingSection workspace={workspace} />
        </>
      ),
    };
  tabs.people = {
    label: t('People'),
    content: (
      <>
        <TeamSection workspace={workspace} meId={me.id} />
        {abilities.invite ? <InviteUsersSection workspace={workspace} /> : null}
        {abilities.manage_link ? <InviteLinkSection workspace={workspace} /> : null}
      </>
    ),
  };
  if (abilities.view_teams)
    tabs.teams = {
      label: t('Teams'),
      content: (
        <TeamsSection workspaceId={workspace.id} members={members.data ?? []} canManage={abilities.manage_teams} />
      ),
    };
  if (abilities.manage_webhooks)
    tabs.integrations = { label: t('Integrations'), content: <WebhooksSection workspace={workspace} /> };
  if (abilities.view_audit)
    tabs['audit-log'] = {
      label: t('Audit log'),
      content: <AuditLogSection workspace={workspace} people={members.data ?? []} />,
    };
  if (abilities.delegate || abilities.delete || abilities.leave)
    tabs['danger-zone'] = {
      label: t('Danger zone'),
      content: (
        <>
          {abilities.delegate || abilities.delete ? <OwnerSection workspace={workspace} meId={me.id} /> : null}
          {abilities.leave ? (
            <Section title={t('Leave workspace')} testId="workspace-leave-section">
              <Group>
                <LeaveWorkspaceButton workspace={workspace} />
              </Group>
            </Section>
          ) : null}
        </>
      ),
    };
  const mine = SettingsTabs.filter((tab) => tabs[tab]);
  const active = mine.find((tab) => tab === asked) ?? mine[0]!;
  // A tab that is not one (or not mine): the settings' first tab, in place of the wrong address.
  if (asked !== undefined && asked !== active)
    return <Navigate to={paths.app.workspaceSettings(workspace.id)} replace />;

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
      <Tabs
        value={active}
        // Each tab is a history entry: Back returns to the previous tab.
        onChange={(tab) => {
          if (tab && tab !== active) void navigate(paths.app.workspaceSettingsTab(workspace.id, tab));
        }}
        keepMounted={false}
        data-testid="workspace-settings-tabs"
        data-active={active}
      >
        <Tabs.List>
          {mine.map((tab) => (
            <Tabs.Tab
              key={tab}
              value={tab}
              color={tab === 'danger-zone' ? 'red' : undefined}
              data-testid={`workspace-settings-tab-${tab}`}
            >
              {tabs[tab]!.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {mine.map((tab) => (
          <Tabs.Panel key={tab} value={tab} pt="md">
            <Stack gap="md">{tabs[tab]!.content}</Stack>
          </Tabs.Panel>
        ))}
      </Tabs>
    </PageCard>
  );
}

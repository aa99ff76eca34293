import { Button, Menu, Text } from '@mantine/core';
import { IconCheck, IconChevronDown, IconList, IconPlus, IconUsersGroup } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@stageline/shared';
import { useWorkspaces } from '../api';
import { setCurrentWorkspaceId } from '../current-workspace';
import { useCurrentWorkspaceId } from '../hooks/use-current-workspace';
import { useSwitchWorkspace } from '../hooks/use-switch-workspace';

/** The header's workspace menu: my workspaces (the current one checked), create, all workspaces. */
export function WorkspaceSwitcher({
  testId = 'workspace-switcher',
  fullWidth = false,
}: {
  testId?: string;
  fullWidth?: boolean;
}) {
  const { t } = useTranslation();
  const currentId = useCurrentWorkspaceId();
  const workspaces = useWorkspaces();
  const switchTo = useSwitchWorkspace();
  const list = workspaces.data ?? [];
  const current = list.find((w) => w.id === currentId);
  const stale = workspaces.isSuccess && !workspaces.isFetching && currentId !== null && !current;

  const { refetch } = workspaces;
  const rechecked = useRef<number | null>(null);
  useEffect(() => {
    if (!stale || currentId === null) return;
    // Not in the list this tab has: the list may predate it (created or joined in another tab, which
    // also switched to it), so fetch it once more; still missing from a fresh list, it was deleted or
    // left: forget it.
    if (rechecked.current !== currentId) {
      rechecked.current = currentId;
      void refetch();
    } else {
      setCurrentWorkspaceId(null);
    }
  }, [stale, currentId, refetch]);

  return (
    <Menu position="bottom-start" withinPortal>
      <Menu.Target>
        <Button
          variant="subtle"
          color="gray"
          size="compact-sm"
          leftSection={<IconUsersGroup size={16} stroke={1.6} />}
          rightSection={<IconChevronDown size={14} stroke={1.6} />}
          data-testid={testId}
          fullWidth={fullWidth}
          justify={fullWidth ? 'space-between' : undefined}
          aria-label={t('Switch workspace: {{name}}', { name: current ? current.name : t('Select workspace') })}
          styles={{ label: { maxWidth: 160, overflow: 'hidden', textOverflow: 'ellipsis' } }}
        >
          {current ? current.name : t('Select workspace')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown maw={280}>
        <Menu.Label>{t('Workspaces')}</Menu.Label>
        {list.length === 0 ? (
          <Text size="sm" c="dimmed" px="sm" py={4}>
            {workspaces.isPending ? t('Loading...') : t('No workspaces yet')}
          </Text>
        ) : null}
        {list.map((workspace) => (
          <Menu.Item
            key={workspace.id}
            onClick={() => void switchTo(workspace.id)}
            rightSection={workspace.id === currentId ? <IconCheck size={14} /> : null}
            data-testid="workspace-switcher-item"
            data-workspace-id={workspace.id}
            aria-current={workspace.id === currentId ? 'true' : undefined}
          >
            <Text size="sm" truncate maw={200} fw={workspace.id === currentId ? 600 : undefined}>
              {workspace.name}
            </Text>
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item
          component={Link}
          to={paths.app.workspaceCreate()}
          leftSection={<IconPlus size={16} />}
          data-testid="workspace-switcher-create"
        >
          {t('Create workspace')}
        </Menu.Item>
        <Menu.Item
          component={Link}
          to={paths.app.workspaces()}
          leftSection={<IconList size={16} />}
          data-testid="workspace-switcher-all"
        >
          {t('All workspaces')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

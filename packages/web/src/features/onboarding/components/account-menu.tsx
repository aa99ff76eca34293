import { Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconHome, IconLogout } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, type TMe } from '@stageline/shared';
import { displayName, UserAvatar } from '../../auth';

/** The quickstart page's account menu: back to the app, or log out (the app header's test ids). */
export function AccountMenu({ user }: { user: TMe }) {
  const { t } = useTranslation();
  const name = displayName(user);
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label={t('Account menu: {{name}}', { name })} data-testid="app-menu">
          <Group gap={6} wrap="nowrap">
            {/* No initials here: the button's visible text must be part of its name (WCAG 2.5.3). */}
            <UserAvatar user={user} size={32} name={undefined} />
            <Text size="sm" fw={500} visibleFrom="sm" maw={160} truncate>
              {name}
            </Text>
            <IconChevronDown size={14} stroke={1.6} />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to={paths.app.dashboard()} leftSection={<IconHome size={16} />}>
          {t('My work')}
        </Menu.Item>
        <Menu.Item
          component={Link}
          to={paths.logout()}
          leftSection={<IconLogout size={16} />}
          color="red"
          data-testid="menu-logout"
        >
          {t('Log out')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

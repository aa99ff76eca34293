import {
  ActionIcon,
  Alert,
  AppShell,
  Box,
  Burger,
  Group,
  Menu,
  NavLink,
  ScrollArea,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure, useLocalStorage } from '@mantine/hooks';
import {
  IconBell,
  IconClockHour4,
  IconChevronDown,
  IconHome,
  IconLayoutSidebar,
  IconLayoutSidebarLeftCollapse,
  IconLogout,
  IconRocket,
  IconSearch,
  IconUser,
  IconUsersGroup,
} from '@tabler/icons-react';
import { Link, Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, StorageKeys } from '@stageline/shared';
import { displayName, RequireSession, UserAvatar, useCurrentUser } from '../../features/auth';
import { CommandPalette, KeyboardLayer, openPalette } from '../../features/command-palette';
import { LiveEvents, NotificationsBell, UnreadBadge, useReadOpenedTask } from '../../features/notifications';
import { QuickstartBanner } from '../../features/onboarding';
import { WorkspaceSwitcher } from '../../features/workspaces';
import { useShellStore } from '../../shared/lib/shell-store';
import { Logo } from '../../shared/ui/logo';
import { Breadcrumbs } from './breadcrumbs';
import { HeaderTools } from './header-tools';
import { QueryProvider } from '../../shared/api/query-provider';
import classes from './layouts.module.css';

const navigation = [
  { to: paths.app.dashboard(), label: 'My work', Icon: IconHome, exact: true },
  { to: paths.app.workspaces(), label: 'Workspaces', Icon: IconUsersGroup, exact: false },
  { to: paths.app.notifications(), label: 'Notifications', Icon: IconBell, exact: false },
  { to: paths.app.time(), label: 'Time', Icon: IconClockHour4, exact: false },
  { to: paths.app.quickstart(), label: 'Quickstart', Icon: IconRocket, exact: false },
  { to: paths.app.profile(), label: 'Profile', Icon: IconUser, exact: false },
];

/** The signed-in area (`/app`): only for a session; others go to /login?next=<this page>. */
export function AppLayout() {
  return (
    <QueryProvider>
      <RequireSession>
        <AppShellLayout />
      </RequireSession>
    </QueryProvider>
  );
}

/**
 * Header with the breadcrumb trail and the user's menu, and a sidebar that can be enabled or
 * disabled (kept under `sideBarEnabled`) and, when enabled, shown or hidden with the burger.
 */
function AppShellLayout() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  useReadOpenedTask();
  const name = displayName(user);
  const location = useLocation();
  const pageError = useShellStore((s) => s.pageError);
  const [sidebarEnabled, setSidebarEnabled] = useLocalStorage<boolean>({
    key: StorageKeys.sideBarEnabled,
    defaultValue: true,
    getInitialValueInEffect: false,
  });
  const [mobileOpened, { toggle: toggleMobile, close: closeMobile }] = useDisclosure(false);
  const [desktopOpened, { toggle: toggleDesktop }] = useDisclosure(true);

  const isActive = (to: string, exact: boolean) =>
    exact ? location.pathname === to : location.pathname === to || location.pathname.startsWith(`${to}/`);

  const navLinks = navigation.map(({ to, label, Icon, exact }) => (
    <NavLink
      key={to}
      component={Link}
      to={to}
      label={t(label)}
      leftSection={<Icon size={18} stroke={1.6} />}
      rightSection={to === paths.app.notifications() ? <UnreadBadge /> : undefined}
      active={isActive(to, exact)}
      onClick={closeMobile}
    />
  ));

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={
        sidebarEnabled
          ? { width: 240, breakpoint: 'sm', collapsed: { mobile: !mobileOpened, desktop: !desktopOpened } }
          : undefined
      }
      padding={0}
    >
      <LiveEvents />
      <CommandPalette />
      <KeyboardLayer />
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="sm">
          <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
            {sidebarEnabled ? (
              <>
                <Burger
                  opened={mobileOpened}
                  onClick={toggleMobile}
                  hiddenFrom="sm"
                  size="sm"
                  aria-label={t('Toggle navigation')}
                />
                <Tooltip label={desktopOpened ? t('Hide sidebar') : t('Show sidebar')}>
                  <ActionIcon
                    variant="subtle"
                    visibleFrom="sm"
                    onClick={toggleDesktop}
                    aria-label={desktopOpened ? t('Hide sidebar') : t('Show sidebar')}
                    data-testid="sidebar-toggle"
                  >
                    <IconLayoutSidebarLeftCollapse size={20} stroke={1.6} />
                  </ActionIcon>
                </Tooltip>
              </>
            ) : null}
            <Logo to={paths.app.dashboard()} compact />
            <Box visibleFrom="sm">
              <WorkspaceSwitcher />
            </Box>
            <div className={classes.crumbs}>
              <Breadcrumbs />
            </div>
          </Group>
          <HeaderTools>
            <Tooltip label={t('Search or run a command (Ctrl K)')}>
              <ActionIcon
                variant="subtle"
                size="lg"
                onClick={openPalette}
                aria-label={t('Search or run a command (Ctrl K)')}
                data-testid="palette-open"
              >
                <IconSearch size={20} stroke={1.6} />
              </ActionIcon>
            </Tooltip>
            <NotificationsBell />
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <UnstyledButton aria-label={t('Account menu: {{name}}', { name })} data-testid="app-menu">
                  <Group gap={6} wrap="nowrap">
                    {/* No initials here: the button's visible text must be part of its name (WCAG 2.5.3). */}
                    <UserAvatar user={user} size={32} name={undefined} />
                    <Text size="sm" fw={500} visibleFrom="sm" maw={160} truncate data-testid="app-menu-name">
                      {name}
                    </Text>
                    <IconChevronDown size={14} stroke={1.6} />
                  </Group>
                </UnstyledButton>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Label>
                  <Text size="sm" fw={600} c="var(--mantine-color-text)" truncate maw={220}>
                    {name}
                  </Text>
                  {name !== user.username ? (
                    <Text size="xs" c="dimmed" truncate maw={220}>
                      @{user.username}
                    </Text>
                  ) : null}
                </Menu.Label>
                <Menu.Item
                  component={Link}
                  to={paths.app.profile()}
                  leftSection={<IconUser size={16} />}
                  data-testid="menu-profile"
                >
                  {t('Profile')}
                </Menu.Item>
                <Menu.Divider />
                {sidebarEnabled
                  ? null
                  : navigation.map(({ to, label, Icon }) => (
                      <Menu.Item
                        key={to}
                        component={Link}
                        to={to}
                        leftSection={<Icon size={16} />}
                        rightSection={to === paths.app.notifications() ? <UnreadBadge /> : undefined}
                      >
                        {t(label)}
                      </Menu.Item>
                    ))}
                <Menu.Item
                  leftSection={<IconLayoutSidebar size={16} />}
                  onClick={() => setSidebarEnabled(!sidebarEnabled)}
                  data-testid="sidebar-enable-toggle"
                >
                  {sidebarEnabled ? t('Disable sidebar') : t('Enable sidebar')}
                </Menu.Item>
                <Menu.Divider />
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
          </HeaderTools>
        </Group>
      </AppShell.Header>
      {sidebarEnabled ? (
        <AppShell.Navbar p="xs" data-testid="sidebar" aria-label={t('Main navigation')}>
          <AppShell.Section hiddenFrom="sm" mb="xs">
            <WorkspaceSwitcher testId="workspace-switcher-sidebar" fullWidth />
          </AppShell.Section>
          <AppShell.Section grow component={ScrollArea}>
            {navLinks}
          </AppShell.Section>
        </AppShell.Navbar>
      ) : null}
      <AppShell.Main>
        <div className={classes.main}>
          {pageError ? (
            <Alert color="red" mb="md" data-testid="page-error">
              {pageError}
            </Alert>
          ) : null}
          {location.pathname === paths.app.dashboard() ? <QuickstartBanner /> : null}
          <Outlet />
        </div>
      </AppShell.Main>
    </AppShell>
  );
}

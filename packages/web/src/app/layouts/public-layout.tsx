import { Anchor, Box, Button, Container, Group, Text } from '@mantine/core';
import { Link, NavLink, Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@stageline/shared';
import { UserAvatar, useSession } from '../../features/auth';
import { Logo } from '../../shared/ui/logo';
import { HeaderTools } from './header-tools';
import { QueryProvider } from '../../shared/api/query-provider';
import classes from './layouts.module.css';

/** Log in and Register for visitors; for a signed-in user, the way back into the app. */
function AccountButtons() {
  const { t } = useTranslation();
  const { status, user } = useSession();
  if (status !== 'anonymous') {
    return (
      <Button
        component={Link}
        to={paths.app.dashboard()}
        variant="light"
        visibleFrom="xs"
        leftSection={user ? <UserAvatar user={user} size={22} /> : null}
        data-testid="public-open-app"
      >
        {t('Open the app')}
      </Button>
    );
  }
  return (
    <>
      <Button component={Link} to={paths.login()} variant="subtle" visibleFrom="xs" data-testid="public-login">
        {t('Log in')}
      </Button>
      <Button component={Link} to={paths.register()} visibleFrom="xs" data-testid="public-register">
        {t('Register')}
      </Button>
    </>
  );
}

/**
 * The room around a public screen drawn as a page card (invites, e-mail confirmation, unsubscribe):
 * the card keeps clear of the header as it does inside the app.
 */
export function PublicCardPage() {
  return (
    <div className={classes.publicCardPage}>
      <Outlet />
    </div>
  );
}

/** The header, the page and the footer of the public pages. */
function PublicPages() {
  const { t } = useTranslation();
  return (
    <Box className={classes.public}>
      <header className={classes.publicHeader}>
        <Container size="lg" h="100%">
          <Group h="100%" justify="space-between" wrap="nowrap">
            <Group gap="lg" wrap="nowrap">
              <Logo />
              <Group gap="md" visibleFrom="sm" component="nav">
                <Anchor component={NavLink} to={paths.docs()} c="dimmed">
                  {t('Docs')}
                </Anchor>
                <Anchor component={NavLink} to={paths.versions()} c="dimmed">
                  {t('Versions')}
                </Anchor>
              </Group>
            </Group>
            <HeaderTools>
              <AccountButtons />
            </HeaderTools>
          </Group>
        </Container>
      </header>
      <main className={classes.publicMain}>
        <Outlet />
      </main>
      <footer className={classes.publicFooter}>
        <Container size="lg">
          <Text size="sm" c="dimmed">
            © Stageline
          </Text>
        </Container>
      </footer>
    </Box>
  );
}

/** The public pages: landing, docs, versions, invite and e-mail confirmation screens. */
export function PublicLayout() {
  return (
    <QueryProvider>
      <PublicPages />
    </QueryProvider>
  );
}

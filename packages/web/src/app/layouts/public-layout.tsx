import { Anchor, Box, Button, Container, Group, Text } from '@mantine/core';
import { Link, NavLink, Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@stageline/shared';
import { Logo } from '../../shared/ui/logo';
import { HeaderTools } from './header-tools';
import classes from './layouts.module.css';

/** The public pages: landing, docs, versions, invite and e-mail confirmation screens. */
export function PublicLayout() {
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
              <Button component={Link} to={paths.login()} variant="subtle" visibleFrom="xs">
                {t('Log in')}
              </Button>
              <Button component={Link} to={paths.register()} visibleFrom="xs">
                {t('Register')}
              </Button>
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

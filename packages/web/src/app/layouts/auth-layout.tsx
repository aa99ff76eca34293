import { Box, Center, Group, Paper, Stack } from '@mantine/core';
import { Outlet } from 'react-router';
import { Logo } from '../../shared/ui/logo';
import { HeaderTools } from './header-tools';
import classes from './layouts.module.css';

/** The shared layout of login, registration and password recovery: one centred card. */
export function AuthLayout() {
  return (
    <Box className={classes.auth}>
      <Group justify="space-between" p="md">
        <Logo />
        <HeaderTools />
      </Group>
      <Center className={classes.authMain}>
        <Paper className={classes.authCard} withBorder radius="md" p="xl" shadow="sm">
          <Stack gap="md">
            <Outlet />
          </Stack>
        </Paper>
      </Center>
    </Box>
  );
}

import { Button, Center, Container, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A whole-window message: the fatal error, maintenance and not-found screens share it. */
export function StatusScreen({
  title,
  message,
  action,
  testId,
}: {
  title: string;
  message?: string;
  action?: ReactNode;
  testId: string;
}) {
  return (
    <Center mih="100vh" p="md" data-testid={testId}>
      <Container size="sm">
        <Stack align="center" gap="md" ta="center">
          <Title order={1} size="h2">
            {title}
          </Title>
          {message ? (
            <Text c="dimmed" size="lg">
              {message}
            </Text>
          ) : null}
          {action}
        </Stack>
      </Container>
    </Center>
  );
}

/** Reloads the page: the fatal error screen's action, and the update notice's (compact). */
export function ReloadButton({ label, compact = false }: { label: string; compact?: boolean }) {
  return (
    <Button
      onClick={() => window.location.reload()}
      variant="filled"
      size={compact ? 'compact-sm' : undefined}
      data-testid="reload"
    >
      {label}
    </Button>
  );
}

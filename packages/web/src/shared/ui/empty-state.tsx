import { Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * An empty list that teaches (docs/design.md): what would be here, what to do next, and the button
 * that does it — never a bare "Nothing yet".
 */
export function EmptyState({
  icon,
  title,
  children,
  actions,
  testId,
}: {
  icon: ReactNode;
  title: string;
  children: ReactNode;
  actions?: ReactNode;
  testId?: string;
}) {
  return (
    <Stack align="center" gap="xs" py="lg" px="md" ta="center" data-testid={testId}>
      <ThemeIcon size={44} radius="xl" variant="light" aria-hidden>
        {icon}
      </ThemeIcon>
      <Title order={3} size="h5">
        {title}
      </Title>
      <Text size="sm" c="dimmed" maw={440}>
        {children}
      </Text>
      {actions ? (
        <Stack align="center" gap="xs" mt={4}>
          {actions}
        </Stack>
      ) : null}
    </Stack>
  );
}

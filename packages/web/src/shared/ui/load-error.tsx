import { Alert, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** What "Try again" asks again: a query as TanStack Query's `useQuery` returns it. */
export type TRetryable = { refetch: () => unknown; isFetching: boolean };

/**
 * A list, panel or screen whose data did not load (docs/design.md, "Load errors offer a way on"): the catalogue's
 * message and a "Try again" that asks again for what failed, spinning while it does. One look for
 * every place.
 */
export function LoadError({ retry, testId }: { retry: TRetryable | readonly TRetryable[]; testId?: string }) {
  const { t } = useTranslation();
  const queries = 'refetch' in retry ? [retry] : retry;
  const fetching = queries.some((query) => query.isFetching);
  return (
    <Alert color="red" variant="light" p="sm" data-testid={testId ?? 'load-error'}>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" c="var(--alert-color)" fw={500}>
          {t('Error while loading data')}
        </Text>
        <Button
          size="compact-sm"
          variant="light"
          color="red"
          loading={fetching}
          onClick={() => queries.forEach((query) => void query.refetch())}
          data-testid="load-error-retry"
        >
          {t('Try again')}
        </Button>
      </Group>
    </Alert>
  );
}

import { Alert, Badge, Card, Code, Container, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useDates } from '../../../shared/i18n/use-dates';
import { outboxQueryOptions } from '../api';
import { LoadError } from '../../../shared/ui/load-error';

/**
 * `/dev/outbox`: the mail a server without SMTP kept (sign-up codes, reset links), newest first and
 * refreshed every 3 seconds, so `npm start` alone can finish a sign-up.
 */
export default function DevOutboxScreen() {
  const { t } = useTranslation();
  const dates = useDates();
  const outbox = useQuery(outboxQueryOptions());
  const notFound = (outbox.error as { status?: number } | null)?.status === 404;

  return (
    <Container size="md" py="xl" data-testid="dev-outbox">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={1} size="h2">
            {t('Outbox')}
          </Title>
          {outbox.isFetching ? <Loader size="xs" aria-label={t('Loading...')} /> : null}
        </Group>
        <Text c="dimmed" size="sm">
          {t('Mail the server would have sent. Only in development, when no SMTP server is configured.')}
        </Text>
        {notFound ? (
          <Alert color="blue" data-testid="dev-outbox-smtp">
            {t('There is no outbox: mail goes through the SMTP server.')}
          </Alert>
        ) : null}
        {outbox.isError && !notFound ? <LoadError retry={outbox} /> : null}
        {outbox.data?.length === 0 ? (
          <Text c="dimmed" data-testid="dev-outbox-empty">
            {t('No mail yet.')}
          </Text>
        ) : null}
        {(outbox.data ?? []).map((mail) => (
          <Card key={mail.id} withBorder radius="md" padding="md" data-testid="dev-outbox-mail">
            <Stack gap={6}>
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Text fw={600}>{mail.subject}</Text>
                <Badge variant="light" color="gray" tt="none">
                  {`${dates.formatCalendar(mail.created_at)} ${dates.formatTime(mail.created_at)}`}
                </Badge>
              </Group>
              <Text size="sm" c="dimmed">
                {t('To: {{address}}', { address: mail.to })}
              </Text>
              <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} data-testid="dev-outbox-text">
                {mail.text}
              </Code>
            </Stack>
          </Card>
        ))}
      </Stack>
    </Container>
  );
}

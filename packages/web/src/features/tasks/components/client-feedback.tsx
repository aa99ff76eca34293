import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { ZClientFeedbackList, type TClientFeedback } from '@stageline/shared/review-sessions';
import { api } from '../../../shared/api';

type TFeedbackLike = Omit<TClientFeedback, 'session'> & { session?: TClientFeedback['session'] };

/** What clients said through review links (docs/review-sessions.md), latest first: approvals and change requests stand out from comments. */
export function ClientFeedbackList({ feedback, title = true }: { feedback: TFeedbackLike[]; title?: boolean }) {
  const { t, i18n } = useTranslation();
  if (feedback.length === 0) return null;
  const label = { approve: t('Approved'), changes: t('Changes requested'), comment: t('Comment') };
  const color = { approve: 'teal', changes: 'orange', comment: 'gray' };
  return (
    <Stack gap="xs" data-testid="client-feedback">
      {title ? (
        <Title order={3} size="h5">
          {t('Client decisions')}
        </Title>
      ) : null}
      {feedback.map((f) => (
        <Card key={f.id} withBorder padding="xs" radius="sm" data-testid="client-feedback-entry" data-kind={f.kind}>
          <Group gap="xs" wrap="wrap">
            <Badge color={color[f.kind]} variant="light">
              {label[f.kind]}
            </Badge>
            <Text size="sm" fw={500}>
              {f.name}
            </Text>
            <Text size="xs" c="dimmed">
              {t('Round {{round}}', { round: f.round })} · {new Date(f.created_at).toLocaleString(i18n.language)}
              {f.session ? ` · ${f.session.name}` : ''}
            </Text>
          </Group>
          {f.text ? (
            <Text size="sm" mt={4} style={{ whiteSpace: 'pre-wrap' }}>
              {f.text}
            </Text>
          ) : null}
        </Card>
      ))}
    </Stack>
  );
}

/** The task screen's "Client decisions": what clients said about the task through review links. */
export function TaskClientFeedback({ taskId }: { taskId: number }) {
  const feedback = useQuery({
    queryKey: ['tasks', taskId, 'client-feedback'],
    queryFn: async ({ signal }) =>
      ZClientFeedbackList.parse(await api.get(`tasks/${taskId}/client_feedback/`, { signal, silent: true })).results,
  });
  return <ClientFeedbackList feedback={feedback.data ?? []} />;
}

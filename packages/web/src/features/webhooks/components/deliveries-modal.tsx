import { Accordion, Badge, Button, Code, Group, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TWebhook, TWebhookDelivery } from '@stageline/shared';
import { useDates } from '../../../shared/i18n/use-dates';
import { formError } from '../../../shared/lib/form-errors';
import { showToast } from '../../../shared/ui/toast';
import { deliveriesQueryOptions, redeliver } from '../api';
import { LoadError } from '../../../shared/ui/load-error';

const statusColor: Record<TWebhookDelivery['status'], string> = {
  pending: 'yellow',
  succeeded: 'teal',
  failed: 'red',
};

/** A webhook's delivery log, newest first: status, tries, answer and time, the bodies, and Redeliver. */
export function DeliveriesModal({ webhook }: { webhook: TWebhook }) {
  const { t } = useTranslation();
  const dates = useDates();
  const deliveries = useQuery(deliveriesQueryOptions(webhook.id));
  const statusLabel: Record<TWebhookDelivery['status'], string> = {
    pending: t('Pending'),
    succeeded: t('Delivered'),
    failed: t('Failed'),
  };

  const again = async (delivery: TWebhookDelivery) => {
    try {
      await redeliver(webhook.id, delivery.id);
      showToast({ kind: 'success', message: t('Sent again') });
    } catch (error) {
      const message = formError(error, { fallback: t('Data was not saved') });
      if (message) showToast({ kind: 'error', message });
    }
  };

  if (deliveries.isPending) return <Loader size="sm" aria-label={t('Loading...')} />;
  if (deliveries.isError) return <LoadError retry={deliveries} />;
  if (deliveries.data.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="webhook-no-deliveries">
        {t('No deliveries yet. Ping the webhook, or make a change it listens to.')}
      </Text>
    );
  }
  return (
    <Accordion variant="separated" data-testid="webhook-delivery-list">
      {deliveries.data.map((delivery) => (
        <Accordion.Item key={delivery.id} value={String(delivery.id)} data-testid="webhook-delivery">
          <Accordion.Control>
            <Group gap="sm" wrap="wrap">
              <Badge color={statusColor[delivery.status]} variant="light" data-testid="webhook-delivery-status">
                {statusLabel[delivery.status]}
              </Badge>
              <Text size="sm" fw={500}>
                {delivery.event}
              </Text>
              <Text size="xs" c="dimmed">
                {[
                  `#${delivery.id}`,
                  delivery.response_status !== null ? `HTTP ${delivery.response_status}` : delivery.error,
                  delivery.duration_ms !== null ? `${delivery.duration_ms} ms` : null,
                  t('tries: {{count}}', { count: delivery.attempts }),
                  `${dates.formatCalendar(delivery.created_at)} ${dates.formatTime(delivery.created_at)}`,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </Text>
            </Group>
          </Accordion.Control>
          <Accordion.Panel>
            <Stack gap="xs">
              {delivery.error ? (
                <Text size="sm" c="red">
                  {delivery.error}
                </Text>
              ) : null}
              {delivery.next_attempt_at ? (
                <Text size="xs" c="dimmed">
                  {t('Next try {{when}}', { when: dates.formatTime(delivery.next_attempt_at) })}
                </Text>
              ) : null}
              <Text size="xs" fw={500}>
                {t('Request')}
              </Text>
              <Code block style={{ maxHeight: 200, overflow: 'auto' }}>
                {delivery.request_excerpt}
              </Code>
              <Text size="xs" fw={500}>
                {t('Response')}
              </Text>
              <Code block style={{ maxHeight: 120, overflow: 'auto' }}>
                {delivery.response_excerpt ?? '—'}
              </Code>
              <Group justify="flex-end">
                <Button
                  size="xs"
                  variant="light"
                  disabled={!webhook.active}
                  onClick={() => void again(delivery)}
                  data-testid="webhook-redeliver"
                >
                  {t('Redeliver')}
                </Button>
              </Group>
            </Stack>
          </Accordion.Panel>
        </Accordion.Item>
      ))}
    </Accordion>
  );
}

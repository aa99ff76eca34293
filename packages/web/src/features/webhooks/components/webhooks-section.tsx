import {
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  Modal,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WebhookEvents, ZWebhookCreate, type TWebhook, type TWebhookCreate, type TWorkspace } from '@stageline/shared';
import { formError } from '../../../shared/lib/form-errors';
import { zodResolver } from '../../../shared/lib/zod-resolver';
import { SecretOnce } from '../../../shared/ui/secret-once';
import { Section } from '../../../shared/ui/section';
import { showToast } from '../../../shared/ui/toast';
import {
  createWebhook,
  deleteWebhook,
  pingWebhook,
  resumeWebhook,
  rotateWebhookSecret,
  updateWebhook,
  webhooksQueryOptions,
} from '../api';
import { useDates } from '../../../shared/i18n/use-dates';
import { DeliveriesModal } from './deliveries-modal';
import { LoadError } from '../../../shared/ui/load-error';

/** What each event means, for the checkboxes (keys of integrations.json). */
export const eventLabels: Record<(typeof WebhookEvents)[number], string> = {
  'task.created': 'A task is created',
  'task.status_changed': 'A task changes status',
  'task.review': 'A reviewer accepts or rejects',
  'task.updated': 'A task’s people or due date change',
  'unit.created': 'A unit is created',
  'unit.deleted': 'A unit is deleted',
  'comment.created': 'Someone comments',
  'pipeline.updated': 'A pipeline is edited',
  'member.joined': 'Someone joins the workspace',
  'member.removed': 'Someone leaves or is removed',
  'time.logged': 'Someone logs time',
  'time.updated': 'A time log is changed',
  'time.deleted': 'A time log is deleted',
};

/**
 * Workspace settings → Webhooks (Admin and above): add one with its URL and events (the secret is
 * shown once), turn it on or off, resume one the server paused, rotate its signing secret (the new
 * one shown once, the previous one signing until the overlap ends), ping it, see its deliveries and
 * send one again.
 */
export function WebhooksSection({ workspace }: { workspace: TWorkspace }) {
  const { t } = useTranslation();
  const hooks = useQuery(webhooksQueryOptions(workspace.id));
  const dates = useDates();
  const [secret, setSecret] = useState<{ value: string; rotated: TWebhook | null } | null>(null);
  const [open, setOpen] = useState<TWebhook | null>(null);
  const form = useForm<TWebhookCreate>({
    initialValues: { url: '', events: ['task.status_changed', 'task.review'] },
    validate: zodResolver<TWebhookCreate>(ZWebhookCreate, t),
  });

  const add = async (values: TWebhookCreate) => {
    try {
      const created = await createWebhook(workspace.id, ZWebhookCreate.parse(values));
      setSecret({ value: created.secret, rotated: null });
      form.reset();
    } catch (error) {
      const message = formError(error, { fields: ['url', 'events'], setErrors: form.setErrors });
      if (message) showToast({ kind: 'error', message });
    }
  };

  const rotate = async (hook: TWebhook) => {
    try {
      const rotated = await rotateWebhookSecret(hook.id);
      setSecret({ value: rotated.secret, rotated });
    } catch (error) {
      const message = formError(error, { fallback: t('Data was not saved') });
      if (message) showToast({ kind: 'error', message });
    }
  };

  const until = (hook: TWebhook) =>
    hook.previous_secret_until
      ? `${dates.formatCalendar(hook.previous_secret_until)} ${dates.formatTime(hook.previous_secret_until)}`
      : '';

  const act = async (work: () => Promise<void>, done: string) => {
    try {
      await work();
      showToast({ kind: 'success', message: done });
    } catch (error) {
      const message = formError(error, { fallback: t('Data was not saved') });
      if (message) showToast({ kind: 'error', message });
    }
  };

  return (
    <Section
      title={t('Webhooks')}
      description={t('Tell other systems what happens here: each event is POSTed as signed JSON to your URL.')}
      testId="workspace-webhooks"
    >
      {secret ? (
        <SecretOnce
          title={secret.rotated ? t('New signing secret') : t('Webhook added')}
          message={
            secret.rotated
              ? t(
                  'The new signing secret, shown this once. Until {{when}} deliveries are signed with both the new and the previous secret: switch your receiver to the new one before then.',
                  { when: until(secret.rotated) },
                )
              : t(
                  'Its signing secret, shown this once: check the webhook-signature header with it (Standard Webhooks).',
                )
          }
          value={secret.value}
          testId="webhook-secret"
          onDone={() => setSecret(null)}
        />
      ) : null}

      <form onSubmit={form.onSubmit((values) => void add(values))} noValidate data-testid="webhook-form">
        <Stack gap="sm">
          <TextInput
            label={t('Payload URL')}
            placeholder="https://ci.example.com/stageline"
            required
            data-testid="webhook-url"
            {...form.getInputProps('url')}
          />
          <Checkbox.Group label={t('Events')} {...form.getInputProps('events')} data-testid="webhook-events">
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={6} mt={6}>
              {WebhookEvents.map((event) => (
                <Checkbox
                  key={event}
                  value={event}
                  label={t(eventLabels[event])}
                  data-testid={`webhook-event-${event}`}
                />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <Group justify="flex-end">
            <Button type="submit" loading={form.submitting} data-testid="webhook-add">
              {t('Add webhook')}
            </Button>
          </Group>
        </Stack>
      </form>

      {hooks.isPending ? <Loader size="sm" aria-label={t('Loading...')} /> : null}
      {hooks.isError ? <LoadError retry={hooks} /> : null}
      <Stack gap="sm">
        {(hooks.data ?? []).map((hook) => (
          <Stack key={hook.id} gap={4} data-testid="webhook">
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <div style={{ minWidth: 0, flex: 1 }}>
                <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }} data-testid="webhook-url-text">
                  {hook.url}
                </Text>
                <Text size="xs" c="dimmed">
                  {hook.events.map((event) => t(eventLabels[event])).join(' · ')}
                </Text>
              </div>
              <Switch
                checked={hook.active}
                onChange={(event) =>
                  void act(
                    () => updateWebhook(hook.id, { active: event.currentTarget.checked }),
                    event.currentTarget.checked ? t('Webhook turned on') : t('Webhook turned off'),
                  )
                }
                label={hook.active ? t('On') : t('Off')}
                data-testid="webhook-active"
              />
            </Group>
            {hook.disabled_reason ? (
              <Badge color="red" variant="light" data-testid="webhook-disabled">
                {t('Turned off after a day of failed deliveries.')}
              </Badge>
            ) : hook.paused_at ? (
              <Group gap="xs" data-testid="webhook-paused">
                <Badge color="red" variant="light">
                  {t('Paused')}
                </Badge>
                <Text size="xs" c="dimmed">
                  {t('Paused after failed deliveries in a row: nothing is sent until you resume it.')}
                </Text>
                <Button
                  size="xs"
                  variant="light"
                  onClick={() => void act(() => resumeWebhook(hook.id), t('Webhook resumed'))}
                  data-testid="webhook-resume"
                >
                  {t('Resume')}
                </Button>
              </Group>
            ) : hook.failing_since ? (
              <Badge color="orange" variant="light">
                {t('Deliveries are failing')}
              </Badge>
            ) : null}
            {hook.previous_secret_until ? (
              <Text size="xs" c="dimmed" data-testid="webhook-previous-secret">
                {t('The previous signing secret also signs until {{when}}.', { when: until(hook) })}
              </Text>
            ) : null}
            <Group gap="xs">
              <Button size="xs" variant="light" onClick={() => setOpen(hook)} data-testid="webhook-deliveries">
                {t('Deliveries')}
              </Button>
              <Button
                size="xs"
                variant="subtle"
                disabled={!hook.active}
                onClick={() => void act(() => pingWebhook(hook.id), t('Ping sent'))}
                data-testid="webhook-ping"
              >
                {t('Ping')}
              </Button>
              <Button size="xs" variant="subtle" onClick={() => void rotate(hook)} data-testid="webhook-rotate">
                {t('Rotate secret')}
              </Button>
              <Button
                size="xs"
                variant="subtle"
                color="red"
                onClick={() => void act(() => deleteWebhook(hook.id), t('Webhook deleted'))}
                data-testid="webhook-delete"
              >
                {t('Delete')}
              </Button>
            </Group>
          </Stack>
        ))}
      </Stack>
      <Modal opened={open !== null} onClose={() => setOpen(null)} title={t('Deliveries')} size="xl">
        {open ? <DeliveriesModal webhook={open} /> : null}
      </Modal>
    </Section>
  );
}

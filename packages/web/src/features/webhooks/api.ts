import { queryOptions } from '@tanstack/react-query';
import {
  ZWebhook,
  ZWebhookCreated,
  ZWebhookDelivery,
  type TWebhookCreate,
  type TWebhookCreated,
  type TWebhookDelivery,
  type TWebhookPatch,
} from '@stageline/shared';
import { api } from '../../shared/api';
import { queryClient } from '../../shared/api/query-client';

/** Webhooks of a workspace (docs/integrations.md). Calls are `silent`: the section shows its own errors. */
const silent = { silent: true } as const;

export const webhookKeys = {
  all: ['webhooks'] as const,
  ofWorkspace: (workspaceId: number) => ['webhooks', 'workspace', workspaceId] as const,
  deliveries: (webhookId: number) => ['webhooks', webhookId, 'deliveries'] as const,
};

export const webhooksQueryOptions = (workspaceId: number) =>
  queryOptions({
    queryKey: webhookKeys.ofWorkspace(workspaceId),
    queryFn: async ({ signal }) =>
      ZWebhook.array().parse(await api.get<unknown>(`workspaces/${workspaceId}/webhooks/`, { signal })),
  });

/** The newest deliveries of a webhook; refreshed every few seconds while shown (tries go on). */
export const deliveriesQueryOptions = (webhookId: number) =>
  queryOptions({
    queryKey: webhookKeys.deliveries(webhookId),
    queryFn: async ({ signal }): Promise<TWebhookDelivery[]> =>
      ZWebhookDelivery.array().parse(await api.get<unknown>(`webhooks/${webhookId}/deliveries/`, { signal })),
    refetchInterval: 3000,
  });

const refresh = () => queryClient.invalidateQueries({ queryKey: webhookKeys.all });

export async function createWebhook(workspaceId: number, input: TWebhookCreate): Promise<TWebhookCreated> {
  const created = ZWebhookCreated.parse(await api.post<unknown>(`workspaces/${workspaceId}/webhooks/`, input, silent));
  await refresh();
  return created;
}

export async function updateWebhook(webhookId: number, patch: TWebhookPatch): Promise<void> {
  await api.patch<unknown>(`webhooks/${webhookId}/`, patch, silent);
  await refresh();
}

export async function deleteWebhook(webhookId: number): Promise<void> {
  await api.delete(`webhooks/${webhookId}/`, silent);
  await refresh();
}

export async function pingWebhook(webhookId: number): Promise<void> {
  await api.post<unknown>(`webhooks/${webhookId}/ping/`, undefined, silent);
  await refresh();
}

export async function redeliver(webhookId: number, deliveryId: number): Promise<void> {
  await api.post<unknown>(`webhooks/${webhookId}/deliveries/${deliveryId}/redeliver/`, undefined, silent);
  await refresh();
}

/** A new signing secret (shown once); the previous one still signs during the overlap. */
export async function rotateWebhookSecret(webhookId: number): Promise<TWebhookCreated> {
  const rotated = ZWebhookCreated.parse(
    await api.post<unknown>(`webhooks/${webhookId}/rotate-secret/`, undefined, silent),
  );
  await refresh();
  return rotated;
}

/** Sends again from a webhook paused after failed tries in a row, its held deliveries first. */
export async function resumeWebhook(webhookId: number): Promise<void> {
  await api.post<unknown>(`webhooks/${webhookId}/resume/`, undefined, silent);
  await refresh();
}

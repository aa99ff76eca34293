import { DigestFrequencies, digestCron, runDigests, type DigestContext } from '../features/digests';
import { EventRetentionMs, pruneEvents } from '../features/events';
import { pruneDeliveries, type WebhookDispatcher } from '../features/webhooks';
import { pruneRateLimits } from '../http/rate-limit';
import type { JobDefinition } from './scheduler';

/** The name of the digest job of a frequency (`digest-daily`…). */
export const digestJobName = (frequency: string) => `digest-${frequency}`;
export const pruneEventsJob = 'prune-events';
export const webhooksJob = 'webhooks';

/**
 * Every recurring job of the app (UTC): the three digests (hourly at :00, daily 07:00, weekly
 * Monday 07:00) and the pruning of live events older than their 24-hour retention and of rate-limit
 * counters whose window passed and of webhook deliveries past 30 days (hourly at :30), and webhook
 * retries (every minute).
 * A digest run that failed for some users is retried twice, 5 minutes apart (the users already
 * mailed are skipped by their claim).
 */
export function appJobs(ctx: DigestContext, webhooks: WebhookDispatcher): JobDefinition<never>[] {
  return [
    ...DigestFrequencies.map((frequency): JobDefinition => ({
      name: digestJobName(frequency),
      cron: digestCron[frequency],
      retryLimit: 2,
      retryDelaySeconds: 300,
      // A run mails users one by one: give a large one most of an hour before it counts as stuck.
      expireInSeconds: 55 * 60,
      handler: () => runDigests(ctx, frequency),
    })),
    {
      name: pruneEventsJob,
      cron: '30 * * * *',
      handler: async () => ({
        deleted: await pruneEvents(ctx.db, new Date(Date.now() - EventRetentionMs)),
        rateLimits: await pruneRateLimits(ctx.db),
        webhookDeliveries: await pruneDeliveries(ctx.db),
      }),
    },
    {
      // A backstop for webhook retries: each process also wakes itself when the next one is due.
      name: webhooksJob,
      cron: '* * * * *',
      handler: async () => webhooks.wake(),
    },
  ];
}

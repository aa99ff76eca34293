import { pruneAuditLog } from '../features/audit-log';
import { sweepAttachments, type FileStorage } from '../features/attachments';
import { DigestFrequencies, digestCron, runDigests, type DigestContext } from '../features/digests';
import { EventRetentionMs, pruneEvents } from '../features/events';
import { pruneDeliveries, type WebhookDispatcher } from '../features/webhooks';
import { pruneRateLimits } from '../http/rate-limit';
import type { JobDefinition } from './scheduler';

/** The name of the digest job of a frequency (`digest-daily`…). */
export const digestJobName = (frequency: string) => `digest-${frequency}`;
export const pruneEventsJob = 'prune-events';
export const webhooksJob = 'webhooks';
export const sweepFilesJob = 'sweep-files';

/**
 * Every recurring job of the app (UTC): the three digests (hourly at :00, daily 07:00, weekly
 * Monday 07:00) and the pruning of live events older than their 24-hour retention and of rate-limit
 * counters whose window passed, of webhook deliveries past 30 days and of audit entries past their
 * workspace's retention (hourly at :30), and webhook
 * retries and the sweep of deleted files (every minute).
 * A digest run that failed for some users is retried twice, 5 minutes apart (the users already
 * mailed are skipped by their claim).
 */
export function appJobs(ctx: DigestContext, webhooks: WebhookDispatcher, storage: FileStorage): JobDefinition<never>[] {
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
        // Each workspace's audit entries past its retention (docs/history-and-audit.md).
        auditEntries: await pruneAuditLog(ctx.db),
      }),
    },
    {
      // A backstop for webhook retries: each process also wakes itself when the next one is due.
      name: webhooksJob,
      cron: '* * * * *',
      handler: async () => webhooks.wake(),
    },
    {
      // Files of deleted tasks, units, comments and workspaces, and abandoned uploads (docs/files.md).
      name: sweepFilesJob,
      cron: '* * * * *',
      expireInSeconds: 55 * 60,
      handler: async () => ({ deleted: await sweepAttachments(ctx.db, storage) }),
    },
  ];
}

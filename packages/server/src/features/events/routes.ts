import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { zWholeNumber } from '@stageline/shared';
import type { Database } from '../../db';
import { callerOf } from '../auth';
import { EventHub, type EventRow, type HubOptions } from './hub';
import { replayFor } from './replay';

/** Heartbeat comment interval: under the usual 30–60 s idle timeouts of proxies. */
export const HeartbeatMs = 25_000;
/** What the client waits before reconnecting (`retry:`). */
export const RetryMs = 3_000;
/** A client that stops reading is dropped (it resumes with Last-Event-ID) once this much is queued. */
const maxQueuedBytes = 1024 * 1024;

const ZEventsQuery = z.object({
  last_event_id: zWholeNumber({ min: 0, max: Number.MAX_SAFE_INTEGER })
    .optional()
    .describe('Resume after this event id (the `Last-Event-ID` header wins when both are sent).'),
});

/** The `Last-Event-ID` header or the query's value, or undefined for a fresh stream. */
function lastEventIdOf(header: string | string[] | undefined, query: number | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value !== undefined && /^\d{1,15}$/.test(value.trim())) return Number(value.trim());
  return query;
}

/** One SSE message; `data` is JSON on one line, so no line of it can end the message early. */
function message(id: number, type: string, data: unknown): string {
  return `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * GET events/: the caller's live events as `text/event-stream` (docs/live-updates.md). The hub is
 * started with the routes (listening before the app serves anything) and stopped with the app;
 * open streams are ended in `preClose`, so they never hold up a shutdown.
 */
export const eventsRoutes: FastifyPluginAsyncZod<{
  database: Database;
  hub?: HubOptions;
  /** Told of the hub once it runs (the metrics count its streams). */
  onHub?: (hub: EventHub) => void;
}> = async (app, { database, hub: hubOptions, onHub }) => {
  const hub = new EventHub(database, { log: app.log, ...hubOptions });
  await hub.start();
  onHub?.(hub);
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });
  app.addHook('onClose', async () => hub.close());

  app.get(
    '/events/',
    {
      onRequest: app.authenticateSession,
      compress: false,
      schema: {
        tags: ['events'],
        summary: "The caller's live events (text/event-stream): notifications, tasks, comments, units",
        description:
          'Server-sent events, read with `fetch` (the bearer header is required). Each message has `id` ' +
          '(a growing number), `event` (`notification`, `task`, `comment`, `units` or `reset`) and `data` ' +
          '(JSON, the `data` of `ZLiveEvent`). Send `Last-Event-ID` (or `?last_event_id=`) to resume: the ' +
          'events after it are replayed in order. An id older than the 24-hour retention, or a backlog of ' +
          'over 1,000 events, answers one `reset` event instead: refetch everything. The response header ' +
          '`Last-Event-ID` is where a fresh stream starts. A comment line every 25 s keeps proxies from ' +
          'closing it.',
        security: [{ bearer: [] }],
        querystring: ZEventsQuery,
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const userId = caller.id;
      const lastId = lastEventIdOf(request.headers['last-event-id'], request.query.last_event_id);
      const stream = new PassThrough();
      let live = false;
      let ended = false;
      const held: EventRow[] = [];
      const replayed = new Set<number>();

      const write = (text: string) => {
        if (ended) return;
        stream.write(text);
        if (stream.writableLength > maxQueuedBytes) end();
      };
      const send = (row: EventRow) => write(message(row.id, row.type, row.payload));
      const unsubscribe = hub.subscribe({
        userId,
        deliver: (row) => {
          if (!live) held.push(row);
          else if (!replayed.has(row.id)) send(row);
        },
      });
      // A signed-out (revoked) session stops receiving by the next heartbeat.
      const heartbeat = setInterval(() => {
        write(': heartbeat\n\n');
        app.isSessionLive({ userId, sessionId: caller.sessionId }).then(
          (live) => live || end(),
          () => undefined,
        );
      }, HeartbeatMs);
      heartbeat.unref();
      // The stream lives no longer than the token that opened it: the client resumes with a fresh one.
      const expiry = setTimeout(() => end(), Math.max(0, caller.tokenExpiresAt - Date.now()));
      expiry.unref();
      function end() {
        if (ended) return;
        ended = true;
        clearInterval(heartbeat);
        clearTimeout(expiry);
        unsubscribe();
        open.delete(end);
        stream.end();
      }
      open.add(end);
      // The client went away (or the stream ended): stop writing and leave the hub.
      reply.raw.once('close', end);

      const start = hub.position;
      void reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-cache, no-transform')
        .header('x-accel-buffering', 'no')
        .header('last-event-id', String(start))
        .send(stream);
      write(`retry: ${RetryMs}\n\n`);

      try {
        if (lastId !== undefined) {
          const replay = await replayFor(database.db, { userId, lastId, newest: start });
          if (replay.reset) {
            write(message(Math.max(start, lastId), 'reset', {}));
          } else {
            for (const row of replay.rows) {
              replayed.add(row.id);
              send(row);
            }
          }
        }
      } catch (error) {
        request.log.error({ err: error }, 'live events: replay failed');
        end();
      }
      live = true;
      for (const row of held.splice(0)) if (!replayed.has(row.id)) send(row);
      return reply;
    },
  );
};

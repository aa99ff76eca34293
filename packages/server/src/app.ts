import { setTimeout as delay } from 'node:timers/promises';
import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyServerOptions, type RouteOptions } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { BuildHeader } from '@stageline/shared';
import type { Config } from './config';
import type { Database } from './db';
import {
  apiTokenRoutes,
  authenticatePlugin,
  authRoutes,
  createKeys,
  defaultAuthLimits,
  loadSigningSecret,
  SessionCache,
  type AuthContext,
  type AuthLimits,
} from './features/auth';
import {
  attachmentsRoutes,
  createStorage,
  createThumbnailQueue,
  type FileStorage,
  type FilesContext,
  type ThumbnailQueue,
} from './features/attachments';
import { registerAuditScope } from './features/audit';
import { auditLogRoutes } from './features/audit-log';
import { digestsRoutes } from './features/digests';
import { fieldsRoutes } from './features/fields';
import { commentsRoutes } from './features/comments';
import { csvRoutes } from './features/csv';
import { eventsRoutes, type EventHub } from './features/events';
import { createMetrics, registerMetrics } from './features/metrics';
import { createMailer, devOutboxRoutes } from './features/mail';
import { notificationsRoutes, notify } from './features/notifications';
import { oauthRoutes } from './features/oauth';
import { pipelinesRoutes } from './features/pipelines';
import { recordHistoryRoutes } from './features/record-history';
import { projectsRoutes } from './features/projects';
import { reportsRoutes } from './features/reports';
import { clientReviewRoutes, reviewSessionsRoutes, type ClientLimits } from './features/review-sessions';
import { systemRoutes } from './features/system';
import { tasksRoutes } from './features/tasks';
import { teamsRoutes } from './features/teams';
import { unitsRoutes } from './features/units';
import { usersRoutes } from './features/users';
import { searchRoutes } from './features/search';
import { viewsRoutes } from './features/views';
import { timeRoutes } from './features/time';
import { adminRoute } from './admin/route';
import { scheduleRoutes } from './features/schedule';
import { WebhookDispatcher, webhooksRoutes } from './features/webhooks';
import { workspacesRoutes } from './features/workspaces';
import { registerAdmission } from './http/admission';
import { registerSlowRequestLog } from './http/slow-requests';
import { registerSpareConnectionClose } from './http/spare-connections';
import { answerFrameworkError, installErrorHandling } from './http/errors';
import { registerHostRedirect } from './http/host-redirect';
import { i18nPlugin } from './http/i18n';
import { registerInputGuard } from './http/input-guard';
import { registerMaintenanceGate } from './http/maintenance';
import { registerSecurityHeaders } from './http/security';
import { registerWebApp, webBuildOf } from './http/web-app';
import { appJobs, createScheduler, jobsSchema } from './jobs';
import { version } from './version';

/** Fastify's schema compilers, typed for Ajv's; the app's are zod's. */
type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

export type AppOptions = {
  config: Config;
  database: Database;
  /** Folder of the built web app; omitted, only the API is served. */
  webDistDir?: string;
  logger?: FastifyServerOptions['logger'] | FastifyBaseLogger;
  /** Rate limits of the sign-in calls; tests lower or raise them. */
  authLimits?: Partial<AuthLimits>;
  /** Rate limits of client review links per address; tests raise them. */
  clientLimits?: ClientLimits;
  /** Waits between webhook tries (tests shorten them); the dispatcher's defaults otherwise. */
  webhookBackoffSeconds?: number[];
  /** How long a webhook try waits for an answer (10 s; tests shorten it). */
  webhookTimeoutMs?: number;
  /** Called for every route as it is registered (the permission-matrix test lists them this way). */
  onRoute?: (route: RouteOptions) => void;
  /**
   * Runs the job scheduler (digests, pruning): `main.ts` does, after the server listens
   * ('after-listen', then after `jobsStartGate`); tests only when they ask (true: started before
   * `buildApp` returns).
   */
  jobs?: boolean | 'after-listen';
  /**
   * With `jobs: 'after-listen'`, what the scheduler waits for once the server listens: by default
   * `JobsStartDelayMs`, so a restart's health probes and first requests do not queue behind
   * pg-boss's setup on the embedded database's one connection (docs/decisions.md, entry 152).
   * Tests hold it to see the server answer while the scheduler has not started.
   */
  jobsStartGate?: () => Promise<void>;
  /**
   * The secret of `POST /api/admin/` (the admin commands of a running server, docs/operations.md):
   * `main.ts` writes one into the embedded database's data directory; without it the route is not there.
   */
  adminSecret?: string;
};

/** How long after listening the scheduler starts (its jobs run by the minute at the finest). */
export const JobsStartDelayMs = 5_000;

/**
 * Assembles the server: plugins, the error handling, every feature's routes under `/api/`, the
 * OpenAPI document and, when built, the web app. It does not listen; `main.ts` and tests do.
 */
export async function buildApp({
  config,
  database,
  webDistDir,
  logger = false,
  authLimits,
  onRoute,
  jobs = false,
  jobsStartGate,
  webhookBackoffSeconds,
  webhookTimeoutMs,
  adminSecret,
  clientLimits,
}: AppOptions) {
  const app = Fastify({
    ...(logger && typeof logger === 'object' && 'child' in logger ? { loggerInstance: logger } : { logger }),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: false },
    frameworkErrors: answerFrameworkError,
    // Every route is described in zod: given here, Fastify does not load Ajv and fast-json-stringify
    // at start only to replace them (docs/decisions.md, 166). Its types expect Ajv's compilers.
    schemaController: {
      compilersFactory: {
        buildValidator: () => validatorCompiler,
        buildSerializer: () => serializerCompiler,
      } as unknown as CompilersFactory,
    },
  }).withTypeProvider<ZodTypeProvider>();

  if (onRoute) app.addHook('onRoute', onRoute);
  registerSpareConnectionClose(app);
  installErrorHandling(app);

  await app.register(i18nPlugin);
  registerHostRedirect(app, config.publicUrl);
  registerMaintenanceGate(app, config.maintenance);
  // Read at each scrape (docs/operations.md, "Metrics"); the hub is there once its routes start.
  let hub: EventHub | undefined;
  const metrics = createMetrics({
    database,
    admission: () => admission.stats(),
    liveConnections: () => hub?.connections ?? 0,
    jobsSchema,
  });
  const admission = registerAdmission(app, {
    concurrency: config.maxConcurrentRequests ?? (database.kind === 'pglite' ? 4 : 2 * database.poolSize),
    maxQueue: config.maxQueuedRequests,
    observeWait: (seconds) => metrics.observeAdmissionWait(seconds),
  });
  registerMetrics(app, { metrics, token: config.metricsToken });
  registerSlowRequestLog(app, { thresholdMs: config.slowRequestMs });
  app.decorate('admission', admission);
  registerInputGuard(app);
  registerSecurityHeaders(app, config);
  await app.register(compress, { global: true, threshold: 1024 });

  const keys = createKeys(await loadSigningSecret(database.db, config));
  const mailer = createMailer({ config, db: database.db, log: app.log });
  app.addHook('onClose', async () => mailer.close());
  // Live sessions seen by this instance; the live-event hub's LISTEN tells it of sessions ended
  // anywhere (docs/security.md, "Tokens").
  const sessionCache = new SessionCache();
  const ctx: AuthContext = { config, db: database.db, keys, mailer, log: app.log, sessionCache };
  const limits: AuthLimits = { ...defaultAuthLimits, ...authLimits };
  await app.register(authenticatePlugin, { db: database.db, keys, sessionCache });
  const storage = createStorage({ db: database.db, s3Url: config.s3Url });
  app.addHook('onClose', async () => storage.close());
  // Thumbnails are made after the upload's answer; a start takes up those left waiting (docs/files.md),
  // without holding up readiness: a database down at start is the health check's to report.
  const thumbnails = createThumbnailQueue({ db: database.db, storage, log: app.log });
  app.addHook('onReady', (done) => {
    thumbnails
      .resume()
      .catch((error: unknown) => app.log.error({ err: error }, 'thumbnails left waiting were not taken up'));
    done();
  });
  app.addHook('preClose', async () => thumbnails.stop());
  const files: FilesContext = {
    db: database.db,
    storage,
    keys,
    maxUploadBytes: config.maxUploadBytes,
    workspaceQuotaBytes: config.workspaceQuotaBytes,
    maxUploadsInFlight: config.maxUploadsInFlight,
    thumbnails,
  };
  app.decorate('fileStorage', storage);
  app.decorate('thumbnails', thumbnails);

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Stageline API',
        version,
        description: 'Workspaces, projects, pipelines of stages, units and their reviewed tasks.',
      },
      servers: [],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    // Without the standalone top bar: its logo is an SVG with an inline <style>, which the page's
    // strict CSP (no 'unsafe-inline' styles) refuses (docs/decisions.md, entry 62).
    uiConfig: { layout: 'BaseLayout' },
    theme: { title: 'Stageline API' },
    staticCSP: true,
    transformStaticCSP: (header) => header.replace(/upgrade-insecure-requests;?/, ''),
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  // Every API answer names the web build this process serves: a tab still running an older one
  // offers to reload (docs/decisions.md, entry 139).
  const build = webBuildOf(webDistDir);
  await app.register(
    async (api) => {
      registerAuditScope(api);
      if (build) {
        api.addHook('onRequest', (_request, reply, done) => {
          reply.raw.setHeader(BuildHeader, build);
          done();
        });
      }
      await api.register(systemRoutes, { config, database });
      await api.register(authRoutes, { ctx, limits });
      await api.register(usersRoutes, { ctx });
      await api.register(apiTokenRoutes, { ctx });
      await api.register(workspacesRoutes, { ctx });
      await api.register(projectsRoutes, { db: database.db });
      await api.register(pipelinesRoutes, { db: database.db });
      await api.register(unitsRoutes, { db: database.db });
      await api.register(fieldsRoutes, { db: database.db });
      await api.register(tasksRoutes, { db: database.db });
      await api.register(teamsRoutes, { db: database.db });
      await api.register(csvRoutes, { db: database.db });
      await api.register(commentsRoutes, { db: database.db });
      await api.register(attachmentsRoutes, { ctx: files });
      await api.register(viewsRoutes, { db: database.db });
      await api.register(reportsRoutes, { db: database.db });
      await api.register(timeRoutes, { db: database.db });
      await api.register(auditLogRoutes, { db: database.db });
      await api.register(recordHistoryRoutes, { db: database.db });
      await api.register(scheduleRoutes, { db: database.db, keys, config });
      await api.register(reviewSessionsRoutes, { ctx: files });
      await api.register(clientReviewRoutes, { ctx: files, ...(clientLimits ? { limits: clientLimits } : {}) });
      await api.register(searchRoutes, { db: database.db });
      await api.register(notificationsRoutes, { db: database.db });
      await api.register(eventsRoutes, {
        database,
        onHub: (started) => (hub = started),
        hub: {
          onSignal: (payload) => sessionCache.signal(payload),
          onListening: (up) => sessionCache.listening(up),
        },
      });
      await api.register(oauthRoutes, { ctx });
      await api.register(digestsRoutes, { db: database.db, keys });
      await api.register(webhooksRoutes, { database, allowPrivate: config.webhooksAllowPrivate });
      if (mailer.devOutbox) await api.register(devOutboxRoutes, { db: database.db });
      if (adminSecret)
        await api.register(adminRoute, { database, s3Url: config.s3Url, sessionCache, secret: adminSecret });
    },
    { prefix: '/api' },
  );

  await registerWebApp(app, webDistDir, { maintenance: config.maintenance });

  // Webhook deliveries go out from every process (docs/integrations.md): woken by commits, by its
  // own retry timer and by the scheduler's minute job.
  const webhookDispatcher = new WebhookDispatcher(database, {
    allowPrivate: config.webhooksAllowPrivate,
    log: app.log,
    backoffSeconds: webhookBackoffSeconds,
    timeoutMs: webhookTimeoutMs,
    tellAdmins: (tx, { kind, workspaceId, url, admins }) =>
      notify(tx, { kind, recipients: admins, actorId: null, workspaceId, text: url }),
  });
  app.decorate('webhookDispatcher', webhookDispatcher);
  app.addHook('onReady', async () => webhookDispatcher.start());
  app.addHook('preClose', async () => webhookDispatcher.stop());

  if (jobs) {
    const scheduler = createScheduler({ database, jobs: appJobs(ctx, webhookDispatcher, storage), log: app.log });
    let starting: Promise<void> | undefined;
    let closing = false;
    // A scheduler that cannot start is logged, never fatal: the app serves requests without it.
    const start = () =>
      (starting ??= scheduler
        .start()
        .catch((error: unknown) => app.log.error({ err: error }, 'job scheduler failed to start')));
    // preClose: the workers stop (and running jobs finish) before the mailer and database close.
    app.addHook('preClose', async () => {
      closing = true;
      await starting;
      await scheduler.stop();
    });
    if (jobs === 'after-listen') {
      const gate = jobsStartGate ?? (() => delay(JobsStartDelayMs, undefined, { ref: false }));
      app.addHook('onListen', async () => {
        void gate().then(
          () => (closing ? undefined : start()),
          (error: unknown) => app.log.error({ err: error }, 'job scheduler failed to start'),
        );
      });
    } else {
      await start();
    }
  }
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's webhook sender (the scheduler's minute job and tests wake it). */
    webhookDispatcher: WebhookDispatcher;
    /** Where the bytes of files live (docs/files.md). */
    fileStorage: FileStorage;
    /** Images waiting for their thumbnails in this process (tests wait for it to be idle). */
    thumbnails: ThumbnailQueue;
    /** Requests running and waiting for a place now (docs/security.md, "Load"). */
    admission: ReturnType<typeof registerAdmission>;
  }
}

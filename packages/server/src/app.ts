import compress from '@fastify/compress';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyServerOptions, type RouteOptions } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database } from './db';
import {
  authenticatePlugin,
  authRoutes,
  createKeys,
  defaultAuthLimits,
  loadSigningSecret,
  type AuthContext,
  type AuthLimits,
} from './features/auth';
import { digestsRoutes } from './features/digests';
import { commentsRoutes } from './features/comments';
import { eventsRoutes } from './features/events';
import { createMailer } from './features/mail/mailer';
import { devOutboxRoutes } from './features/mail/routes';
import { notificationsRoutes } from './features/notifications';
import { oauthRoutes } from './features/oauth/routes';
import { pipelinesRoutes } from './features/pipelines';
import { projectsRoutes } from './features/projects';
import { systemRoutes } from './features/system/routes';
import { tasksRoutes } from './features/tasks';
import { unitsRoutes } from './features/units';
import { usersRoutes } from './features/users/routes';
import { workspacesRoutes } from './features/workspaces';
import { AppError, installErrorHandling } from './http/errors';
import { registerHostRedirect } from './http/host-redirect';
import { i18nPlugin } from './http/i18n';
import { registerMaintenanceGate } from './http/maintenance';
import { registerSecurityHeaders } from './http/security';
import { registerWebApp } from './http/web-app';
import { appJobs, createScheduler } from './jobs';
import { version } from './version';

export type AppOptions = {
  config: Config;
  database: Database;
  /** Folder of the built web app; omitted, only the API is served. */
  webDistDir?: string;
  logger?: FastifyServerOptions['logger'] | FastifyBaseLogger;
  /** Rate limits of the sign-in calls; tests lower or raise them. */
  authLimits?: Partial<AuthLimits>;
  /** Called for every route as it is registered (the permission-matrix test lists them this way). */
  onRoute?: (route: RouteOptions) => void;
  /** Runs the job scheduler (digests, pruning): `main.ts` does; tests only when they ask. */
  jobs?: boolean;
};

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
}: AppOptions) {
  const app = Fastify({
    ...(logger && typeof logger === 'object' && 'child' in logger ? { loggerInstance: logger } : { logger }),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: false },
  }).withTypeProvider<ZodTypeProvider>();

  if (onRoute) app.addHook('onRoute', onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);

  await app.register(i18nPlugin);
  registerHostRedirect(app, config.publicUrl);
  registerMaintenanceGate(app, config.maintenance);
  await registerSecurityHeaders(app, config);
  await app.register(compress, { global: true, threshold: 1024 });
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return new AppError('rate_limited', undefined, { seconds }, { 'retry-after': String(seconds) });
    },
  });

  const keys = createKeys(await loadSigningSecret(database.db, config));
  const mailer = createMailer({ config, db: database.db, log: app.log });
  app.addHook('onClose', async () => mailer.close());
  const ctx: AuthContext = { config, db: database.db, keys, mailer, log: app.log };
  const limits: AuthLimits = { ...defaultAuthLimits, ...authLimits };
  await app.register(authenticatePlugin, { db: database.db, keys });

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
    staticCSP: true,
    transformStaticCSP: (header) => header.replace(/upgrade-insecure-requests;?/, ''),
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(
    async (api) => {
      await api.register(systemRoutes, { config, database });
      await api.register(authRoutes, { ctx, limits });
      await api.register(usersRoutes, { ctx });
      await api.register(workspacesRoutes, { ctx });
      await api.register(projectsRoutes, { db: database.db });
      await api.register(pipelinesRoutes, { db: database.db });
      await api.register(unitsRoutes, { db: database.db });
      await api.register(tasksRoutes, { db: database.db });
      await api.register(commentsRoutes, { db: database.db });
      await api.register(notificationsRoutes, { db: database.db });
      await api.register(eventsRoutes, { database });
      await api.register(oauthRoutes, { ctx });
      await api.register(digestsRoutes, { db: database.db, keys });
      if (mailer.devOutbox) await api.register(devOutboxRoutes, { db: database.db });
    },
    { prefix: '/api' },
  );

  await registerWebApp(app, webDistDir, { maintenance: config.maintenance });

  if (jobs) {
    const scheduler = createScheduler({ database, jobs: appJobs(ctx), log: app.log });
    // preClose: the workers stop (and running jobs finish) before the mailer and database close.
    app.addHook('preClose', async () => scheduler.stop());
    // A scheduler that cannot start is logged, never fatal: the app serves requests without it.
    await scheduler.start().catch((error: unknown) => app.log.error({ err: error }, 'job scheduler failed to start'));
  }
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;

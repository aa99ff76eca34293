import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyServerOptions } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database } from './db';
import { systemRoutes } from './features/system/routes';
import { installErrorHandling } from './http/errors';
import { registerHostRedirect } from './http/host-redirect';
import { i18nPlugin } from './http/i18n';
import { registerMaintenanceGate } from './http/maintenance';
import { registerSecurityHeaders } from './http/security';
import { registerWebApp } from './http/web-app';
import { version } from './version';

export type AppOptions = {
  config: Config;
  database: Database;
  /** Folder of the built web app; omitted, only the API is served. */
  webDistDir?: string;
  logger?: FastifyServerOptions['logger'] | FastifyBaseLogger;
};

/**
 * Assembles the server: plugins, the error handling, every feature's routes under `/api/`, the
 * OpenAPI document and, when built, the web app. It does not listen; `main.ts` and tests do.
 */
export async function buildApp({ config, database, webDistDir, logger = false }: AppOptions) {
  const app = Fastify({
    ...(logger && typeof logger === 'object' && 'child' in logger ? { loggerInstance: logger } : { logger }),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: false },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);

  await app.register(i18nPlugin);
  registerHostRedirect(app, config.publicUrl);
  registerMaintenanceGate(app, config.maintenance);
  await registerSecurityHeaders(app, config);
  await app.register(compress, { global: true, threshold: 1024 });

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
    },
    { prefix: '/api' },
  );

  await registerWebApp(app, webDistDir);
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;

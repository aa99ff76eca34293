import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

/**
 * Security headers with a real Content-Security-Policy: scripts only from this origin (no inline
 * script anywhere in the app), inline styles allowed because Mantine and React Flow set style
 * attributes, no framing. Helmet's middleware is made once and sets the headers on every response;
 * Fastify's plugin for it made it anew on each request, parsing the policy every time (a tenth of a
 * small read's CPU: docs/decisions.md, decision 116). A header a route sets itself wins, as before.
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  const https = config.publicUrl?.startsWith('https:') ?? false;
  const headers = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: https ? { maxAge: 15_552_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, next) =>
    headers(request.raw, reply.raw, (error?: unknown) => next(error as Error | undefined)),
  );
}

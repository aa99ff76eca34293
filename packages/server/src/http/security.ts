import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

/**
 * Security headers with a real Content-Security-Policy: scripts only from this origin (no inline
 * script anywhere in the app), inline styles allowed because Mantine and React Flow set style
 * attributes, no framing. The headers do not depend on the request (no nonces), so Helmet runs once,
 * at start, and every response gets the headers it set; Fastify's plugin for it made Helmet anew on
 * each request, parsing the policy every time (a tenth of a small read's CPU: docs/decisions.md,
 * decisions 116 and 119). A header a route sets itself wins, as before.
 */
export function registerSecurityHeaders(app: FastifyInstance, config: Config): void {
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
  const fixed: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => fixed.push([name, String(value)]),
    removeHeader: () => undefined,
  };
  headers({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error instanceof Error ? error : new Error('helmet refused its options');
  });
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of fixed) reply.raw.setHeader(name, value);
    done();
  });
}

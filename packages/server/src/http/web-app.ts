import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { sendApiNotFound } from './errors';

const immutable = 'public, max-age=31536000, immutable';

/**
 * Serves the built web app: hashed files under `/assets/` cached for a year, everything else
 * revalidated, and any other GET that is not an API call answered with `index.html` so client-side
 * routes survive a reload (SPA fallback). Without a build, every unknown path is a JSON 404.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string | undefined): Promise<void> {
  const served = distDir && existsSync(path.join(distDir, 'index.html'));
  if (served) {
    await app.register(fastifyStatic, {
      root: distDir,
      prefix: '/',
      index: ['index.html'],
      cacheControl: false,
      setHeaders: (res, filePath) => {
        const relative = path.relative(distDir, filePath);
        res.header('cache-control', relative.startsWith(`assets${path.sep}`) ? immutable : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (!served || url === '/api' || url.startsWith('/api/') || url.startsWith('/assets/') || !wantsPage) {
      return sendApiNotFound(request, reply);
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { Languages } from '@stageline/shared';
import { sendApiNotFound } from './errors';

const immutable = 'public, max-age=31536000, immutable';

/**
 * The web build in `distDir`: the path of its entry script as `index.html` loads it
 * (`/assets/index-<hash>.js`), whose name changes with any change of the app's code. Null without
 * a build. The app in the browser knows the same path as its own `import.meta.url`.
 */
export function webBuildOf(distDir: string | undefined): string | null {
  const index = distDir && path.join(distDir, 'index.html');
  if (!index || !existsSync(index)) return null;
  const entry = /<script type="module"[^>]*\ssrc="(\/assets\/[^"]+\.js)"/.exec(readFileSync(index, 'utf8'));
  return entry?.[1] ?? null;
}

/**
 * Serves the built web app: hashed files under `/assets/` cached for a year, everything else
 * revalidated, and any other GET that is not an API call answered with `index.html` so client-side
 * routes survive a reload (SPA fallback). Without a build, every unknown path is a JSON 404.
 * `/` and `/login` are the landing page and the login form prerendered in the request's language
 * (`landing/{language}.html`, `login/{language}.html`, built by the web app's Vite config), which
 * paint before the app's script runs; in maintenance mode they are the plain `index.html`, whose app
 * shows the maintenance text. Files go out as the build
 * precompressed them (brotli 11 or gzip 9) when the browser accepts it.
 */
export async function registerWebApp(
  app: FastifyInstance,
  distDir: string | undefined,
  { maintenance = false }: { maintenance?: boolean } = {},
): Promise<void> {
  const served = distDir && existsSync(path.join(distDir, 'index.html'));
  if (served) {
    // Pages the build prerendered per language (landing/{language}.html, login/{language}.html).
    const prerendered = (page: string) =>
      new Set(Languages.filter((language) => existsSync(path.join(distDir, page, `${language}.html`))));
    const pages = [
      { url: '/', dir: 'landing', languages: prerendered('landing') },
      { url: '/login', dir: 'login', languages: prerendered('login') },
    ];
    for (const { url, dir, languages } of pages) {
      app.get(url, { schema: { hide: true } }, (request, reply) => {
        const page = !maintenance && languages.has(request.language);
        return reply
          .header('cache-control', 'no-cache')
          .header('vary', 'Accept-Language')
          .sendFile(page ? `${dir}/${request.language}.html` : 'index.html');
      });
    }
    await app.register(fastifyStatic, {
      root: distDir,
      prefix: '/',
      index: ['index.html'],
      // The build writes .br and .gz beside each file (packages/web/build/precompress.ts).
      preCompressed: true,
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

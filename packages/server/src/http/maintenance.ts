import type { FastifyInstance } from 'fastify';
import { AppError } from './errors';

/** Paths that keep answering in maintenance mode, so the web app can say why it is closed. */
const openPaths = ['/api/health/', '/api/config/'];

/**
 * docs/rules.md §API, decision 8: in maintenance mode every API call answers 503 `maintenance`; the web app, still
 * served, replaces every screen with the maintenance text it learns from `/api/config/`.
 */
export function registerMaintenanceGate(app: FastifyInstance, maintenance: boolean): void {
  if (!maintenance) return;
  app.addHook('onRequest', async (request) => {
    const url = request.url.split('?')[0] ?? '';
    if (url.startsWith('/api/') && !openPaths.includes(url)) throw new AppError('maintenance');
  });
}

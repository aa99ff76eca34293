import type { FastifyRequest } from 'fastify';

const loopback = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * Asked on this machine itself: from loopback and not through a proxy (a reverse proxy on the same
 * machine connects from loopback too, but says whom it forwards for). Metrics and the admin
 * commands of a running server answer such requests (docs/operations.md).
 */
export const fromThisMachine = (request: FastifyRequest) =>
  loopback.has(request.socket.remoteAddress ?? '') && !request.headers['x-forwarded-for'] && !request.headers.forwarded;

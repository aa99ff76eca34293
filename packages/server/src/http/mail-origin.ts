import os from 'node:os';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { AppError } from './errors';

/** Host names this machine answers to: loopback, its host name and every address of its interfaces. */
function ownHostNames(): Set<string> {
  const names = new Set(['localhost', '127.0.0.1', '[::1]', os.hostname().toLowerCase()]);
  for (const addresses of Object.values(os.networkInterfaces())) {
    for (const { address, family } of addresses ?? []) {
      names.add(family === 'IPv6' ? `[${address.toLowerCase()}]` : address);
    }
  }
  return names;
}

/** The request's Host as a URL's host name and port, or undefined when it does not parse. */
function parseHost(host: string): { hostname: string; port: string } | undefined {
  try {
    const url = new URL(`http://${host}`);
    if (url.host.toLowerCase() !== host.toLowerCase().replace(/:80$/, '')) return undefined;
    return { hostname: url.hostname.toLowerCase(), port: url.port || '80' };
  } catch {
    return undefined;
  }
}

/**
 * The origin of links in e-mails sent by this request (password reset, e-mail change, invites).
 * `PUBLIC_URL` when set. Without it the request's own origin, but only when its Host names this
 * server — a loopback name, the machine's host name or one of its addresses, on the port the
 * connection came in on — because a Host (or, behind a trusted proxy, an X-Forwarded-Host) is
 * whatever the caller typed: mailing a victim a live token inside an attacker's address would hand
 * the token over. Anything else is refused with `host_not_allowed` and logged (docs/security.md).
 */
export function mailOrigin(config: Config, request: FastifyRequest): string {
  if (config.publicUrl) return config.publicUrl;
  const host = parseHost(request.host);
  const localPort = (request.socket as { localPort?: number } | undefined)?.localPort;
  const ours =
    host !== undefined &&
    ownHostNames().has(host.hostname) &&
    (localPort === undefined || String(localPort) === host.port);
  if (!ours) {
    request.log.warn(
      { host: request.host },
      'refused to e-mail a link to a host that is not this server; set PUBLIC_URL to the address users open',
    );
    throw new AppError('host_not_allowed');
  }
  return `${request.protocol}://${request.host}`;
}

/** The origin of links in e-mails sent outside a request (digests): PUBLIC_URL, else this machine. */
export function backgroundMailOrigin(config: Config): string {
  return config.publicUrl ?? `http://localhost:${config.port || 3000}`;
}

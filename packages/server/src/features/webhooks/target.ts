import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may send (docs/integrations.md, "SSRF"): public addresses only, unless
 * `WEBHOOKS_ALLOW_PRIVATE` is set. A URL is checked when it is saved and, since a name may resolve
 * elsewhere later, again at every connection (the lookup of the request itself refuses a private
 * answer). Redirects are not followed.
 */

const privateRanges = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  privateRanges.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local (AWS metadata fd00:ec2::254 too)
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  privateRanges.addSubnet(network, prefix, 'ipv6');
}

/** Whether an address is loopback, private, link-local, metadata or otherwise not on the internet. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return privateRanges.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    if (mapped) return privateRanges.check(mapped, 'ipv4');
    return privateRanges.check(address, 'ipv6');
  }
  return true;
}

export const privateTargetMessage = 'This address is private or local: webhooks may only call public addresses.';

/** The host of a URL as an address or a name (brackets of an IPv6 literal removed). */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Why a webhook may not call `url`, or null. A name that does not resolve now is accepted (it may
 * later; every delivery checks again); one that resolves to a private address is not.
 */
export async function targetProblem(url: string, allowPrivate: boolean): Promise<string | null> {
  if (allowPrivate) return null;
  const host = hostOf(new URL(url));
  if (isIP(host)) return isPrivateAddress(host) ? privateTargetMessage : null;
  if (host === 'localhost' || host.endsWith('.localhost')) return privateTargetMessage;
  const addresses = await new Promise<LookupAddress[]>((resolve) =>
    dnsLookup(host, { all: true }, (error, found) => resolve(error ? [] : found)),
  );
  return addresses.some((entry) => isPrivateAddress(entry.address)) ? privateTargetMessage : null;
}

/** A DNS lookup for the request itself that refuses private answers (a name re-pointed after saving). */
function guardedLookup(
  hostname: string,
  options: { all?: boolean },
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '');
    const safe = addresses.filter((entry) => !isPrivateAddress(entry.address));
    if (safe.length === 0) return callback(Object.assign(new Error(privateTargetMessage), { code: 'EPRIVATE' }), '');
    if (options.all) return callback(null, safe);
    return callback(null, safe[0]!.address, safe[0]!.family);
  });
}

export type PostOutcome =
  | { ok: true; status: number; body: string; durationMs: number }
  | { ok: false; status: number | null; body: string | null; error: string; durationMs: number };

const excerptBytes = 2048;

/**
 * POSTs `body` to `url` with `headers`: `timeoutMs` for the whole exchange, no redirects, at most
 * 2 KB of the answer kept. 2xx is success; anything else, or no answer, is a failure with a reason.
 */
export function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  { allowPrivate, timeoutMs }: { allowPrivate: boolean; timeoutMs: number },
): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve({ ok: false, status: null, body: null, error: 'The URL is not valid.', durationMs: 0 });
      return;
    }
    const host = hostOf(target);
    if (!allowPrivate && isIP(host) && isPrivateAddress(host)) {
      resolve({ ok: false, status: null, body: null, error: privateTargetMessage, durationMs: 0 });
      return;
    }
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers },
        timeout: timeoutMs,
        ...(allowPrivate ? {} : { lookup: guardedLookup }),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on('data', (chunk: Buffer) => {
          if (kept < excerptBytes) {
            chunks.push(chunk);
            kept += chunk.length;
          }
        });
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8').slice(0, excerptBytes);
          if (status >= 200 && status < 300) resolve({ ok: true, status, body: text, durationMs: elapsed() });
          else resolve({ ok: false, status, body: text, error: `HTTP ${status}`, durationMs: elapsed() });
        });
        response.on('error', (error) =>
          resolve({ ok: false, status, body: null, error: error.message, durationMs: elapsed() }),
        );
      },
    );
    const timer = setTimeout(() => request.destroy(new Error(`No answer within ${timeoutMs / 1000} s`)), timeoutMs);
    request.on('timeout', () => request.destroy(new Error(`No answer within ${timeoutMs / 1000} s`)));
    request.on('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, status: null, body: null, error: error.message, durationMs: elapsed() });
    });
    request.on('close', () => clearTimeout(timer));
    request.end(body);
  });
}

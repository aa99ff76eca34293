import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may send (docs/security.md, "Webhooks"): public unicast addresses only, never
 * this server's own, unless `WEBHOOKS_ALLOW_PRIVATE` is set. A URL is checked when it is saved and,
 * since a name may resolve elsewhere later, again at every connection (the lookup of the request
 * itself refuses such an answer). Redirects are not followed.
 */

/** IANA's global unicast block: IPv6 outside it (IPv4-compatible `::a.b.c.d`, …) is never public. */
const globalUnicast = ipaddr.parseCIDR('2000::/3');

/**
 * An address as ipaddr.js reads it, an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, which dials the
 * IPv4 address) as that IPv4 address; any other IPv6 address stays IPv6 (ipaddr.js's `process`
 * would also turn the IPv4-compatible `::a.b.c.d` into IPv4). Null when not an address.
 */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = address.replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return null;
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    const words = v6.parts;
    const mapped = words.slice(0, 5).every((word) => word === 0) && words[5] === 0xffff;
    return mapped ? v6.toIPv4Address() : v6;
  }
  return parsed;
}

/** This machine's own addresses (read each time: interfaces come and go). */
function ownAddresses(): Set<string> {
  const own = new Set<string>();
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) {
      const parsed = parseAddress(entry.address);
      if (parsed) own.add(parsed.toNormalizedString());
    }
  }
  return own;
}

/**
 * Whether a webhook may call this address: ipaddr.js names its range, and only `unicast` (the
 * public internet) passes: loopback, private, link-local (cloud metadata), carrier-grade NAT,
 * documentation, benchmarking, multicast, reserved, NAT64 (64:ff9b::/96), 6to4 and Teredo do not;
 * IPv6 must also be in the global unicast block 2000::/3. An IPv4-mapped IPv6 address is judged
 * as its IPv4 address. The server's own addresses never pass.
 */
export function isPublicAddress(address: string): boolean {
  const parsed = parseAddress(address);
  if (!parsed || parsed.range() !== 'unicast') return false;
  if (parsed.kind() === 'ipv6' && !parsed.match(globalUnicast)) return false;
  return !ownAddresses().has(parsed.toNormalizedString());
}

/** The opposite of `isPublicAddress`: loopback, private, reserved, this server, … */
export const isPrivateAddress = (address: string) => !isPublicAddress(address);

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
        let done = false;
        /** The outcome from the status and the excerpt: once 2 KB are in, the rest is not read. */
        const finish = () => {
          if (done) return;
          done = true;
          const text = Buffer.concat(chunks).subarray(0, excerptBytes).toString('utf8');
          if (status >= 200 && status < 300) resolve({ ok: true, status, body: text, durationMs: elapsed() });
          else resolve({ ok: false, status, body: text, error: `HTTP ${status}`, durationMs: elapsed() });
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          kept += chunk.length;
          if (kept >= excerptBytes) {
            finish();
            // Closes the connection: a 300 MB answer is not downloaded to keep its first 2 KB.
            response.destroy();
          }
        });
        response.on('end', finish);
        response.on('error', (error) => {
          if (done) return;
          done = true;
          resolve({ ok: false, status, body: null, error: error.message, durationMs: elapsed() });
        });
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

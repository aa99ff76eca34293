import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';

/**
 * What the log may carry (docs/security.md): never a password, a password hash, a token, a code or
 * a link secret. Request bodies are never logged; these serializers clean the two places secrets
 * could still slip in — URLs (invite and unsubscribe tokens travel in paths and queries) and errors
 * (a failed database statement's message lists its parameters, such as the password hash of a
 * sign-up).
 */

/** Query parameters whose values are secrets. */
const secretParams = /^(token|code|refresh|access|password|ephemeral_token|key|secret|state)$/i;
/** A path segment long and random enough to be a token (ours are 43 base64url characters). */
const tokenSegment = /^[A-Za-z0-9_-]{20,}$/;
const redacted = '[redacted]';

/** The URL with secret query values and token-like path segments replaced. */
export function safeUrl(url: string | undefined): string | undefined {
  if (!url) return url;
  const query = url.indexOf('?');
  const pathPart = query === -1 ? url : url.slice(0, query);
  const path = pathPart
    .split('/')
    .map((segment) => (tokenSegment.test(segment) ? redacted : segment))
    .join('/');
  if (query === -1) return path;
  const params = new URLSearchParams(url.slice(query + 1));
  for (const name of [...params.keys()]) if (secretParams.test(name)) params.set(name, redacted);
  return `${path}?${params.toString()}`;
}

/**
 * An error's message without the parameters Drizzle appends to failed statements
 * (`Failed query: … \nparams: …`): the statement stays, the values go.
 */
export function safeErrorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cut = message.indexOf('\nparams:');
  return cut === -1 ? message : `${message.slice(0, cut)}\nparams: ${redacted}`;
}

type SafeError = {
  type: string;
  message: string;
  stack?: string;
  code?: string;
  statusCode?: number;
  query?: string;
  cause?: SafeError;
};

/** An error as the log shows it: type, message, stack, code and the statement, never its values. */
export function serializeError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return error;
  const fields = error as Error & { code?: unknown; statusCode?: unknown; query?: unknown; cause?: unknown };
  const message = safeErrorMessage(error);
  const result: SafeError = {
    type: error.name,
    message,
    stack: error.stack?.replace(error.message, message),
  };
  if (typeof fields.code === 'string') result.code = fields.code;
  if (typeof fields.statusCode === 'number') result.statusCode = fields.statusCode;
  if (typeof fields.query === 'string') result.query = fields.query;
  if (fields.cause !== undefined && depth < 3) result.cause = serializeError(fields.cause, depth + 1) as SafeError;
  return result;
}

type RequestLike = {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
};

/** The request line of a log entry: method, cleaned URL, host and client address. */
function serializeRequest(request: RequestLike) {
  return {
    method: request.method,
    url: safeUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Header and field paths removed wherever they appear in a log entry. */
export const redactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  '*.password',
  '*.passwordHash',
  '*.password_hash',
  '*.token',
  '*.refresh',
  '*.access',
  '*.ephemeral_token',
  '*.secret',
];

/** The logger options of the app (main.ts) and of tests that read the log. */
export function loggerOptions(level: LoggerOptions['level']): LoggerOptions {
  return {
    level,
    base: { service: 'stageline' },
    redact: { paths: redactPaths, censor: redacted },
    serializers: { req: serializeRequest, err: serializeError },
  };
}

/** The app's logger, writing JSON lines to `destination` (standard output by default). */
export function createLogger(level: LoggerOptions['level'], destination?: DestinationStream): Logger {
  return destination ? pino(loggerOptions(level), destination) : pino(loggerOptions(level));
}

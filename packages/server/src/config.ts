import path from 'node:path';
import { z } from 'zod';
import { Limits } from '@stageline/shared';

const ZBooleanFlag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'], { error: 'must be true or false (1/0, yes/no, on/off)' })
  .transform((value) => ['1', 'true', 'yes', 'on'].includes(value));

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An OpenID Connect issuer: https, or http on this machine only (development and tests). */
const ZIssuer = z
  .url({ protocol: /^https?$/, error: 'must be an https:// URL' })
  .refine((value) => {
    const url = new URL(value);
    return url.protocol === 'https:' || loopbackHosts.has(url.hostname);
  }, 'must be an https:// URL (http:// only for localhost)')
  .transform((value) => value.replace(/\/+$/, ''));

const ZEnv = z.object({
  PORT: z.coerce
    .number({ error: 'must be a port number' })
    .int()
    .min(0, 'must be 0 to 65535')
    .max(65535, 'must be 0 to 65535')
    .default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' }).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  MAIL_FROM: z.string().min(3).default('Stageline <no-reply@stageline.local>'),
  SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .transform((value) => new URL(value).origin)
    .optional(),
  MAINTENANCE: ZBooleanFlag.default(false),
  DEBUG: ZBooleanFlag.default(false),
  TRUST_PROXY: ZBooleanFlag.default(false),
  WEBHOOKS_ALLOW_PRIVATE: ZBooleanFlag.default(false),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  SLOW_REQUEST_MS: z.coerce
    .number({ error: 'must be a whole number from 0 to 600000' })
    .int('must be a whole number from 0 to 600000')
    .min(0, 'must be a whole number from 0 to 600000')
    .max(600_000, 'must be a whole number from 0 to 600000')
    .default(1000),
  MAX_CONCURRENT_REQUESTS: z.coerce
    .number({ error: 'must be a whole number from 1 to 1000' })
    .int('must be a whole number from 1 to 1000')
    .min(1, 'must be a whole number from 1 to 1000')
    .max(1000, 'must be a whole number from 1 to 1000')
    .optional(),
  MAX_QUEUED_REQUESTS: z.coerce
    .number({ error: 'must be a whole number from 0 to 100000' })
    .int('must be a whole number from 0 to 100000')
    .min(0, 'must be a whole number from 0 to 100000')
    .max(100_000, 'must be a whole number from 0 to 100000')
    .default(1000),
  MAX_UPLOAD_MB: z.coerce
    .number({ error: 'must be a whole number from 1 to 100000' })
    .int('must be a whole number from 1 to 100000')
    .min(1, 'must be a whole number from 1 to 100000')
    .max(100_000, 'must be a whole number from 1 to 100000')
    .default(Limits.attachment.defaultMaxMb),
  MAX_UPLOADS_IN_FLIGHT: z.coerce
    .number({ error: 'must be a whole number from 1 to 1000' })
    .int('must be a whole number from 1 to 1000')
    .min(1, 'must be a whole number from 1 to 1000')
    .max(1000, 'must be a whole number from 1 to 1000')
    .default(4),
  WORKSPACE_QUOTA_MB: z.coerce
    .number({ error: 'must be a whole number from 1 to 100000000' })
    .int('must be a whole number from 1 to 100000000')
    .min(1, 'must be a whole number from 1 to 100000000')
    .max(100_000_000, 'must be a whole number from 1 to 100000000')
    .default(Limits.attachment.defaultQuotaMb),
  MAX_OWNED_WORKSPACES: z.coerce
    .number({ error: 'must be a whole number from 1 to 100000' })
    .int('must be a whole number from 1 to 100000')
    .min(1, 'must be a whole number from 1 to 100000')
    .max(100_000, 'must be a whole number from 1 to 100000')
    .default(Limits.ownedWorkspaces.defaultMax),
  S3_URL: z
    .url({ protocol: /^https?$/, error: 'must be http(s)://ACCESS_KEY:SECRET@host[:port]/bucket[?region=…]' })
    .refine((value) => {
      const url = new URL(value);
      return Boolean(url.username && url.password && url.pathname.split('/').filter(Boolean).length === 1);
    }, 'must be http(s)://ACCESS_KEY:SECRET@host[:port]/bucket[?region=…]')
    .optional(),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be fatal, error, warn, info, debug, trace or silent',
    })
    .default('info'),
  NODE_ENV: z
    .enum(['development', 'production', 'test'], { error: 'must be development, production or test' })
    .default('production'),
  OAUTH_GITHUB_CLIENT_ID: z.string().optional(),
  OAUTH_GITHUB_CLIENT_SECRET: z.string().optional(),
  OAUTH_GOOGLE_CLIENT_ID: z.string().optional(),
  OAUTH_GOOGLE_CLIENT_SECRET: z.string().optional(),
  OAUTH_GITLAB_CLIENT_ID: z.string().optional(),
  OAUTH_GITLAB_CLIENT_SECRET: z.string().optional(),
  OAUTH_GITLAB_ISSUER: ZIssuer.default('https://gitlab.com'),
  OAUTH_OIDC_ISSUER: ZIssuer.optional(),
  OAUTH_OIDC_CLIENT_ID: z.string().optional(),
  OAUTH_OIDC_CLIENT_SECRET: z.string().optional(),
  OAUTH_OIDC_NAME: z.string().trim().min(1).max(60, 'must be at most 60 characters').default('Single sign-on'),
});

type Env = z.infer<typeof ZEnv>;

/**
 * A sign-in provider: `github` is plain OAuth 2 with its REST API for the profile; the others are
 * OpenID Connect issuers found by discovery. Only providers whose variables are set exist.
 */
export type OAuthProviderConfig = {
  id: 'github' | 'google' | 'gitlab' | 'oidc';
  /** The button label. */
  name: string;
  kind: 'github' | 'oidc';
  /** The OpenID Connect issuer (kind `oidc`). */
  issuer?: string;
  clientId: string;
  /** Unset for a public client (PKCE only), allowed for the generic OIDC provider. */
  clientSecret?: string;
};

/** The configured OAuth providers, and a problem for every half-configured one. */
function oauthProviders(e: Env): { providers: OAuthProviderConfig[]; problems: string[] } {
  const providers: OAuthProviderConfig[] = [];
  const problems: string[] = [];
  const pair = (prefix: string, id?: string, secret?: string) => {
    if (Boolean(id) !== Boolean(secret)) {
      problems.push(`${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET: set both or neither`);
      return null;
    }
    return id && secret ? { clientId: id, clientSecret: secret } : null;
  };
  const github = pair('OAUTH_GITHUB', e.OAUTH_GITHUB_CLIENT_ID, e.OAUTH_GITHUB_CLIENT_SECRET);
  if (github) providers.push({ id: 'github', name: 'GitHub', kind: 'github', ...github });
  const google = pair('OAUTH_GOOGLE', e.OAUTH_GOOGLE_CLIENT_ID, e.OAUTH_GOOGLE_CLIENT_SECRET);
  if (google)
    providers.push({ id: 'google', name: 'Google', kind: 'oidc', issuer: 'https://accounts.google.com', ...google });
  const gitlab = pair('OAUTH_GITLAB', e.OAUTH_GITLAB_CLIENT_ID, e.OAUTH_GITLAB_CLIENT_SECRET);
  if (gitlab) providers.push({ id: 'gitlab', name: 'GitLab', kind: 'oidc', issuer: e.OAUTH_GITLAB_ISSUER, ...gitlab });
  if (Boolean(e.OAUTH_OIDC_ISSUER) !== Boolean(e.OAUTH_OIDC_CLIENT_ID)) {
    problems.push('OAUTH_OIDC_ISSUER and OAUTH_OIDC_CLIENT_ID: set both or neither');
  } else if (e.OAUTH_OIDC_ISSUER && e.OAUTH_OIDC_CLIENT_ID) {
    providers.push({
      id: 'oidc',
      name: e.OAUTH_OIDC_NAME,
      kind: 'oidc',
      issuer: e.OAUTH_OIDC_ISSUER,
      clientId: e.OAUTH_OIDC_CLIENT_ID,
      clientSecret: e.OAUTH_OIDC_CLIENT_SECRET,
    });
  }
  return { providers, problems };
}

export type Config = {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  smtpUrl: string | undefined;
  /** The From of every mail. */
  mailFrom: string;
  /** Signs tokens; unset, a secret generated once is kept in the database (`app_secrets`). */
  secretKey: string | undefined;
  publicUrl: string | undefined;
  maintenance: boolean;
  debug: boolean;
  trustProxy: boolean;
  /** Whether webhooks may call loopback, private and link-local addresses (tests, local setups). */
  webhooksAllowPrivate: boolean;
  /** The bearer token `/api/metrics` asks of callers from elsewhere than this machine (docs/operations.md). */
  metricsToken: string | undefined;
  /** An API request slower than this is logged with its statements (docs/operations.md). */
  slowRequestMs: number;
  /** API requests worked on at once; unset: 4 on the embedded database, twice the pool on PostgreSQL. */
  maxConcurrentRequests: number | undefined;
  /** API requests that may wait for their turn; one more is answered 503 `server_busy`. */
  maxQueuedRequests: number;
  /** The largest file one upload may carry, in bytes (MAX_UPLOAD_MB). */
  maxUploadBytes: number;
  /** The bytes of files one workspace may hold (WORKSPACE_QUOTA_MB). */
  workspaceQuotaBytes: number;
  /** The workspaces one user may own (MAX_OWNED_WORKSPACES): the file quota is per workspace. */
  maxOwnedWorkspaces: number;
  /** Uploads one user may have under way at once in this process; one more is 429 (MAX_UPLOADS_IN_FLIGHT). */
  maxUploadsInFlight: number;
  /** Object storage for files; unset, files are kept in the database (docs/files.md). */
  s3Url: string | undefined;
  logLevel: Env['LOG_LEVEL'];
  env: Env['NODE_ENV'];
  /** Sign-in providers (OAUTH_*), in button order; empty when none is configured. */
  oauthProviders: OAuthProviderConfig[];
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads the configuration from the environment, failing at start with every problem listed, so a
 * wrong deployment never half-starts. Empty variables count as unset.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = ZEnv.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const e = parsed.data;
  const oauth = oauthProviders(e);
  if (oauth.problems.length > 0) throw new ConfigError(oauth.problems);
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    secretKey: e.SECRET_KEY,
    publicUrl: e.PUBLIC_URL,
    maintenance: e.MAINTENANCE,
    debug: e.DEBUG,
    trustProxy: e.TRUST_PROXY,
    webhooksAllowPrivate: e.WEBHOOKS_ALLOW_PRIVATE,
    metricsToken: e.METRICS_TOKEN,
    slowRequestMs: e.SLOW_REQUEST_MS,
    maxConcurrentRequests: e.MAX_CONCURRENT_REQUESTS,
    maxQueuedRequests: e.MAX_QUEUED_REQUESTS,
    maxUploadBytes: e.MAX_UPLOAD_MB * 1024 * 1024,
    workspaceQuotaBytes: e.WORKSPACE_QUOTA_MB * 1024 * 1024,
    maxOwnedWorkspaces: e.MAX_OWNED_WORKSPACES,
    maxUploadsInFlight: e.MAX_UPLOADS_IN_FLIGHT,
    s3Url: e.S3_URL,
    logLevel: e.LOG_LEVEL,
    env: e.NODE_ENV,
    oauthProviders: oauth.providers,
  };
}

import path from 'node:path';
import { z } from 'zod';

const ZBooleanFlag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'], { error: 'must be true or false (1/0, yes/no, on/off)' })
  .transform((value) => ['1', 'true', 'yes', 'on'].includes(value));

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
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be fatal, error, warn, info, debug, trace or silent',
    })
    .default('info'),
  NODE_ENV: z
    .enum(['development', 'production', 'test'], { error: 'must be development, production or test' })
    .default('production'),
});

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
  logLevel: z.infer<typeof ZEnv>['LOG_LEVEL'];
  env: z.infer<typeof ZEnv>['NODE_ENV'];
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
    logLevel: e.LOG_LEVEL,
    env: e.NODE_ENV,
  };
}

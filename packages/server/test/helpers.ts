import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type App, type AppOptions } from '../src/app';
import type { Config } from '../src/config';
import type { AuthLimits } from '../src/features/auth';
import { openDatabase, type Database } from '../src/db';

/** What `global-setup.ts` prepared once per run: a migrated PGlite tarball or a PostgreSQL template. */
export type TestTemplate =
  { kind: 'pglite'; tarball: string } | { kind: 'postgres'; serverUrl: string; template: string; prefix: string };

declare module 'vitest' {
  export interface ProvidedContext {
    testTemplate: TestTemplate;
  }
}

/** The URL of database `name` on the server of `serverUrl` (same host, user and options). */
export function databaseUrlFor(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `work` on one short-lived connection, for statements such as CREATE DATABASE. */
export async function withServerClient<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Quotes an identifier we generated ourselves (letters, digits, underscores). */
export function quoteIdent(name: string): string {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`Unexpected database name ${name}`);
  return `"${name}"`;
}

let tarball: Blob | undefined;

/**
 * A fresh, migrated database of its own for a test file, copied from the run's template so no file
 * pays for migrations: PGlite in memory loaded from the tarball, or `CREATE DATABASE … TEMPLATE` on
 * PostgreSQL (dropped again on close).
 */
export async function createTestDatabase(): Promise<Database> {
  const template = inject('testTemplate');
  if (template.kind === 'pglite') {
    tarball ??= new Blob([await readFile(template.tarball)]);
    const pglite = await PGlite.create({ loadDataDir: tarball });
    return openDatabase({ pglite, migrate: false });
  }
  const name = `${template.prefix}${randomBytes(6).toString('hex')}`;
  await withServerClient(template.serverUrl, (client) =>
    client.query(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(template.template)}`),
  );
  const database = await openDatabase({
    databaseUrl: databaseUrlFor(template.serverUrl, name),
    migrate: false,
    poolSize: 4,
  });
  let dropped = false;
  return {
    ...database,
    close: async () => {
      await database.close();
      if (dropped) return;
      dropped = true;
      await withServerClient(template.serverUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`),
      );
    },
  };
}

/** A complete configuration for tests: API only, no public URL, no maintenance, silent. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    port: 0,
    host: '127.0.0.1',
    databaseUrl: undefined,
    dataDir: '/nonexistent/stageline-test-data',
    smtpUrl: undefined,
    mailFrom: 'Stageline <no-reply@stageline.test>',
    secretKey: undefined,
    publicUrl: undefined,
    maintenance: false,
    debug: false,
    trustProxy: false,
    webhooksAllowPrivate: true,
    metricsToken: undefined,
    slowRequestMs: 1000,
    maxConcurrentRequests: undefined,
    maxQueuedRequests: 1000,
    maxUploadBytes: 100 * 1024 * 1024,
    workspaceQuotaBytes: 5_000 * 1024 * 1024,
    maxOwnedWorkspaces: 10,
    maxUploadsInFlight: 4,
    s3Url: undefined,
    logLevel: 'silent',
    env: 'test',
    oauthProviders: [],
    ...overrides,
  };
}

export type TestAppOptions = {
  config?: Partial<Config>;
  webDistDir?: string;
  /** A database the caller owns (and closes); by default the app gets a fresh one it closes itself. */
  database?: Database;
  /** Rate limits of the sign-in calls (production values by default). */
  authLimits?: Partial<AuthLimits>;
  /** Sees every route as it is registered. */
  onRoute?: AppOptions['onRoute'];
  /** A logger to read what the app logs (silent by default). */
  logger?: AppOptions['logger'];
  /** Waits between webhook tries. */
  webhookBackoffSeconds?: number[];
  /** How long a webhook try waits for an answer. */
  webhookTimeoutMs?: number;
  /** Rate limits of client review links per address. */
  clientLimits?: AppOptions['clientLimits'];
};

export type TestApp = {
  app: App;
  database: Database;
  config: Config;
  close(): Promise<void>;
};

/**
 * The real app on a real database, not listening: tests call `app.inject()`. The app is not yet
 * ready, so a test may still add its own routes before the first request.
 */
export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const config = testConfig(options.config);
  try {
    const app = await buildApp({
      config,
      database,
      webDistDir: options.webDistDir,
      logger: options.logger ?? false,
      authLimits: options.authLimits,
      onRoute: options.onRoute,
      webhookBackoffSeconds: options.webhookBackoffSeconds,
      webhookTimeoutMs: options.webhookTimeoutMs,
      clientLimits: options.clientLimits,
    });
    return {
      app,
      database,
      config,
      close: async () => {
        await app.close();
        if (!options.database) await database.close();
      },
    };
  } catch (error) {
    if (!options.database) await database.close();
    throw error;
  }
}

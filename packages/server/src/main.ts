import closeWithGrace from 'close-with-grace';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db';
import { writeAdminSecret } from './admin/secret';
import { createLogger } from './http/logging';
import { webDistDir } from './package-paths';
import { version } from './version';

/**
 * Starts Stageline: configuration, database (migrated), the app, then listens. SIGTERM and SIGINT
 * stop accepting connections, let in-flight requests finish, and close the database cleanly so an
 * embedded data directory is never left half-written.
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  // The web server's modules load while the database opens: much of PGlite's start is waiting on
  // files and on V8 compiling its WASM in the background (docs/decisions.md, 166).
  const appModule = import('./app');
  appModule.catch(() => undefined); // awaited below, after the database; a failure is reported there
  const database = await openDatabase(
    config.databaseUrl
      ? { databaseUrl: config.databaseUrl }
      : {
          dataDir: config.dataDir,
          onLockTakeover: (reason) =>
            logger.warn({ dataDir: config.dataDir }, `took over the data directory's lock: ${reason}`),
        },
  );
  logger.info(
    { version, database: database.kind, dataDir: config.databaseUrl ? undefined : config.dataDir },
    'database ready',
  );
  const { buildApp } = await appModule;
  // The admin commands reach a running embedded database through the server (docs/operations.md).
  const adminSecret = config.databaseUrl ? undefined : await writeAdminSecret(config.dataDir);
  const app = await buildApp({ config, database, webDistDir, logger, jobs: 'after-listen', adminSecret });

  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) logger.error({ err }, 'shutting down after an error');
    else logger.info({ signal }, 'shutting down');
    await app.close();
    await database.close();
  });

  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  process.stderr.write(`Stageline failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, loadConfig, type Config } from '../config';
import { DataDirLockedError, openDatabase } from '../db';
import { ArchiveError } from './archive';
import { AdminCommands, runAdminCommand, UsageError } from './commands';
import { AdminSecretFile, AdminSecretHeader } from './secret';

/**
 * `npm run admin -- <command> [args]` (docs/operations.md, "Admin commands"): the same environment
 * as the server (DATA_DIR or DATABASE_URL, S3_URL). It opens the database itself, or, when the
 * embedded database is held by a running server, asks that server to run the command.
 */

/** Commands that work on the schema as it is (never migrate it first). */
const asIs = new Set(['backup', 'restore', 'migrate-status']);
const print = (line: string) => process.stdout.write(`${line}\n`);

async function viaServer(config: Config, command: string, args: string[]): Promise<string[]> {
  const secret = (await readFile(path.join(config.dataDir, AdminSecretFile), 'utf8')).trim();
  const host = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host;
  const response = await fetch(`http://${host.includes(':') ? `[${host}]` : host}:${config.port}/api/admin/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [AdminSecretHeader]: secret },
    body: JSON.stringify({ command, args }),
  });
  if (!response.ok) throw new UsageError(`The running server refused the command (HTTP ${response.status}).`);
  const answer = (await response.json()) as { ok: boolean; lines: string[] };
  if (!answer.ok) throw new UsageError(answer.lines.join('\n'));
  return answer.lines;
}

export async function admin(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || !(command in AdminCommands)) {
    print('Usage: npm run admin -- <command> [arguments]\n');
    for (const line of Object.values(AdminCommands)) print(`  ${line}`);
    return command ? 2 : 0;
  }
  // Files are named from where the command runs, whoever opens them.
  const args = ['backup', 'verify', 'restore'].includes(command) ? rest.map((arg) => path.resolve(arg)) : rest;
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  try {
    if (command === 'verify') {
      for (const line of await runAdminCommand({ s3Url: config.s3Url }, command, args)) print(line);
      return 0;
    }
    let database;
    try {
      database = await openDatabase(
        config.databaseUrl
          ? { databaseUrl: config.databaseUrl, migrate: !asIs.has(command) }
          : { dataDir: config.dataDir, migrate: !asIs.has(command) },
      );
    } catch (error) {
      if (!(error instanceof DataDirLockedError)) throw error;
      if (command === 'restore')
        throw new UsageError('Stop the server first: a restore goes into an empty data directory.');
      for (const line of await viaServer(config, command, args)) print(line);
      return 0;
    }
    try {
      for (const line of await runAdminCommand({ database, s3Url: config.s3Url }, command, args)) print(line);
    } finally {
      await database.close();
    }
    return 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof ArchiveError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

/**
 * `npm run seed:demo [-- --username NAME] [-- --units N]`: fills a fresh demo workspace (see
 * src/features/demo/seed.ts) in the database the server would use: DATABASE_URL, or the embedded
 * one in DATA_DIR (refused while a server holds it: stop the server first).
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config';
import { DataDirLockedError, openDatabase } from '../src/db';
import { seedDemo } from '../src/features/demo/seed';

const print = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { username: { type: 'string' }, units: { type: 'string' } },
    allowPositionals: false,
  });
  const units = values.units === undefined ? undefined : Number(values.units);
  if (units !== undefined && !(Number.isInteger(units) && units >= 1 && units <= 1000)) {
    process.stderr.write('--units must be a whole number from 1 to 1000.\n');
    return 2;
  }
  const config = loadConfig();
  let database;
  try {
    database = await openDatabase(
      config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir },
    );
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      process.stderr.write(`${error.message}\nStop the running server, then run npm run seed:demo again.\n`);
      return 1;
    }
    throw error;
  }
  try {
    const result = await seedDemo(database.db, {
      ...(values.username ? { username: values.username } : {}),
      ...(units ? { units } : {}),
    });
    print(`Demo workspace #${result.workspaceId}: project #${result.projectId}, pipeline #${result.pipelineId}`);
    print(`${result.units} units, ${result.tasks} tasks, ${result.comments} comments.`);
    print(
      result.password
        ? `Sign in as "${result.username}" with the password: ${result.password}`
        : `Sign in as "${result.username}" with your own password.`,
    );
    return 0;
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await database.close();
  }
}

process.exitCode = await main();

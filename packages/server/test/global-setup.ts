import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db';
import { databaseUrlFor, quoteIdent, withServerClient } from './helpers';

/**
 * Migrates one template database per run, so each test file copies it instead of migrating: a PGlite
 * data directory dumped to a tarball by default, or a template database on the PostgreSQL server of
 * TEST_DATABASE_URL. The teardown removes the tarball, or drops the template and every copy.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const runId = randomBytes(4).toString('hex');
  const serverUrl = process.env.TEST_DATABASE_URL;

  if (!serverUrl) {
    const pglite = await PGlite.create();
    const database = await openDatabase({ pglite, migrate: true });
    const tarball = path.join(os.tmpdir(), `stageline-template-${runId}.tar.gz`);
    try {
      const dump = await pglite.dumpDataDir('gzip');
      await writeFile(tarball, Buffer.from(await dump.arrayBuffer()));
    } finally {
      await database.close();
    }
    project.provide('testTemplate', { kind: 'pglite', tarball });
    return async () => {
      await rm(tarball, { force: true });
    };
  }

  const prefix = `stageline_test_${runId}_`;
  const template = `${prefix}template`;
  const dropAll = async () => {
    await withServerClient(serverUrl, async (client) => {
      const { rows } = await client.query<{ datname: string }>(
        'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
        [prefix],
      );
      for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(datname)} WITH (FORCE)`);
    });
  };
  await withServerClient(serverUrl, (client) => client.query(`CREATE DATABASE ${quoteIdent(template)}`));
  try {
    const database = await openDatabase({
      databaseUrl: databaseUrlFor(serverUrl, template),
      migrate: true,
      poolSize: 1,
    });
    await database.close();
  } catch (error) {
    await dropAll();
    throw error;
  }
  project.provide('testTemplate', { kind: 'postgres', serverUrl, template, prefix });
  return dropAll;
}

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { migrationsDir } from '../package-paths';

export type Journal = { entries: { idx: number; when: number; tag: string }[] };

/** Drizzle's list of this version's migrations, in order. */
export async function readJournal(folder: string = migrationsDir): Promise<Journal> {
  return JSON.parse(await readFile(path.join(folder, 'meta', '_journal.json'), 'utf8')) as Journal;
}

export const readJournalTags = async () => (await readJournal()).entries.map((entry) => entry.tag);

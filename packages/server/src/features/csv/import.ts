import { eq } from 'drizzle-orm';
import { Limits, stripInvisibles, type TUnitImportFields } from '@stageline/shared';
import { fieldValueOfText } from '@stageline/shared/fields';
import { schema, type Db } from '../../db';
import { loadProjectFields, type FieldRow } from '../fields';
import { loadGraph } from '../tasks';
import { authorizeNewUnit, createImportedUnits, type ImportedUnit } from '../units';
import { unguardCell, type CsvProblem, type CsvTable } from './format';

const { memberships, users } = schema;

/** What an import did or would do; `problems` carry i18n keys for the route to translate. */
export type ImportOutcome = { created: number; dryRun: boolean; problems: CsvProblem[] };

/** Problems listed in one answer: enough to fix a file, not a 10,000-row echo of it. */
const maxProblems = 200;

/** Columns an export writes that an import reads past: units are always new, tasks start afresh. */
const ignoredColumn = (column: string) => column === 'id' || / *: *status$/i.test(column);

/**
 * A due date of a file: `2026-12-31` (midnight UTC), an ISO date-time with or without a zone
 * (`2026-12-31T18:00:00Z`, `2026-12-31 18:00`, UTC when none), or `31.12.2026` as Excel writes
 * dates in Russian locales. Null when it is none of these or no such day exists.
 */
export function parseDue(value: string): Date | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i.exec(
    value,
  );
  const dotted = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?: (\d{1,2}):(\d{2}))?$/.exec(value);
  let parts: number[];
  let zone: string | undefined;
  if (iso) {
    parts = [iso[1], iso[2], iso[3], iso[4] ?? '0', iso[5] ?? '0', iso[6] ?? '0'].map(Number);
    zone = iso[7];
  } else if (dotted) {
    parts = [dotted[3], dotted[2], dotted[1], dotted[4] ?? '0', dotted[5] ?? '0', '0'].map(Number);
  } else {
    return null;
  }
  const [year, month, day, hour, minute, second] = parts as [number, number, number, number, number, number];
  const utc = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  const exists =
    utc.getUTCFullYear() === year &&
    utc.getUTCMonth() === month - 1 &&
    utc.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60;
  if (!exists) return null;
  if (!zone || zone.toUpperCase() === 'Z') return utc;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const offset = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2));
  return new Date(utc.getTime() - sign * offset * 60_000);
}

/** Workspace members by lower-cased username and e-mail. */
async function membersOf(db: Db, workspaceId: number): Promise<Map<string, number>> {
  const rows = await db
    .select({ id: users.id, username: users.username, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.workspaceId, workspaceId));
  const byKey = new Map<string, number>();
  for (const row of rows) {
    byKey.set(row.username.toLowerCase(), row.id);
    byKey.set(row.email.toLowerCase(), row.id);
  }
  return byKey;
}

type Column =
  | { kind: 'name' | 'description' | 'ignored' }
  | { kind: 'assignees' | 'due'; stage: number }
  | { kind: 'field'; field: FieldRow };

/**
 * POST units/import/: checks the caller may create units in the pipeline, then the file as
 * `readCsv` read it and every line of it, and — when nothing is wrong and it is not a dry run —
 * creates all the units through the units service in one transaction. Any problem anywhere means
 * nothing is written.
 */
export async function importUnits(
  db: Db,
  { userId, fields, table }: { userId: number; fields: TUnitImportFields; table: CsvTable | CsvProblem },
): Promise<ImportOutcome> {
  const dryRun = fields.dry_run === 'true';
  const { project } = await authorizeNewUnit(db, { userId, projectId: fields.project, pipelineId: fields.pipeline });
  const refused = (problems: CsvProblem[]): ImportOutcome => ({
    created: 0,
    dryRun,
    problems:
      problems.length <= maxProblems
        ? problems
        : [
            ...problems.slice(0, maxProblems),
            {
              line: problems[maxProblems]!.line,
              field: 'file',
              message: 'Problems not shown: {{number}}.',
              params: { number: problems.length - maxProblems },
            },
          ],
  });

  if ('message' in table) return refused([table]);

  const graph = await loadGraph(db, fields.pipeline, project.workspaceId);
  const stageByName = new Map<string, number | 'ambiguous'>();
  for (const node of graph.nodes) {
    if (node.kind !== 'stage') continue;
    const key = node.name.trim().toLowerCase();
    stageByName.set(key, stageByName.has(key) ? 'ambiguous' : node.id);
  }

  // Custom fields by name or key (docs/custom-fields.md, "CSV"): what an export writes, read back.
  const fieldByName = new Map<string, FieldRow>();
  for (const field of await loadProjectFields(db, fields.project)) {
    if (field.appliesTo !== 'unit' || field.archivedAt !== null) continue;
    fieldByName.set(field.key, field);
    fieldByName.set(field.name.trim().toLowerCase(), field);
  }

  const problems: CsvProblem[] = [];
  const columns: Column[] = [];
  const seen = new Set<string>();
  // Header cells as an export guarded them (a stage named `=x` is written `'=x: due`).
  const header = table.header.map((raw) => unguardCell(raw).trim());
  for (const column of header) {
    const key = column.toLowerCase();
    const problem = (message: string, params?: CsvProblem['params']) =>
      problems.push({ line: 1, field: column || 'file', message, ...(params ? { params } : {}) });
    columns.push({ kind: 'ignored' });
    if (column === '') {
      problem('A column of the header has no name.');
      continue;
    }
    if (seen.has(key)) {
      problem('The column “{{column}}” appears twice.', { column });
      continue;
    }
    seen.add(key);
    if (key === 'name' || key === 'description') {
      columns[columns.length - 1] = { kind: key };
      continue;
    }
    if (ignoredColumn(key)) continue;
    const field = fieldByName.get(key);
    if (field) {
      columns[columns.length - 1] = { kind: 'field', field };
      continue;
    }
    const per = /^(.*?)\s*:\s*(assignees|due)$/i.exec(column);
    if (!per) {
      problem('Unknown column “{{column}}”.', { column });
      continue;
    }
    const stage = stageByName.get(per[1]!.trim().toLowerCase());
    if (stage === undefined) problem('The pipeline has no stage “{{stage}}”.', { stage: per[1]!.trim() });
    else if (stage === 'ambiguous') problem('Several stages are named “{{stage}}”.', { stage: per[1]!.trim() });
    else columns[columns.length - 1] = { kind: per[2]!.toLowerCase() as 'assignees' | 'due', stage };
  }
  if (!columns.some((c) => c.kind === 'name')) {
    problems.push({ line: 1, field: 'name', message: 'The file has no “name” column.' });
  }
  if (problems.length > 0) return refused(problems);

  const members = await membersOf(db, project.workspaceId);
  const rows: ImportedUnit[] = [];
  for (const { line, cells } of table.records) {
    if (cells.length !== columns.length) {
      problems.push({
        line,
        field: 'file',
        message: 'The line has {{fields}} fields; the header has {{columns}}.',
        params: { fields: cells.length, columns: columns.length },
      });
      continue;
    }
    const unit: ImportedUnit = { name: '', description: '', stages: [] };
    const stageOf = (stage: number) => {
      let spec = unit.stages.find((s) => s.stage === stage);
      if (!spec) unit.stages.push((spec = { stage }));
      return spec;
    };
    cells.forEach((rawCell, i) => {
      const column = columns[i]!;
      const field = header[i]!;
      const cell = unguardCell(rawCell);
      const problem = (message: string, params?: CsvProblem['params']) =>
        problems.push({ line, field, message, ...(params ? { params } : {}) });
      switch (column.kind) {
        case 'ignored':
          return;
        case 'name': {
          unit.name = stripInvisibles(cell).trim();
          if (unit.name === '') problem('Name is required.');
          else if (unit.name.length > Limits.name.max)
            problem('The name is longer than {{max}} characters.', { max: Limits.name.max });
          return;
        }
        case 'description': {
          unit.description = cell;
          if (cell.length > Limits.description.max)
            problem('The description is longer than {{max}} characters.', { max: Limits.description.max });
          return;
        }
        case 'assignees': {
          const names = cell
            .split(/[;,]/)
            .map((name) => name.trim())
            .filter(Boolean);
          if (names.length === 0) return;
          const ids: number[] = [];
          for (const name of names) {
            const id = members.get(name.toLowerCase());
            if (id === undefined) problem('“{{person}}” is not a member of this workspace.', { person: name });
            else ids.push(id);
          }
          stageOf(column.stage).assignees = [...new Set(ids)];
          return;
        }
        case 'field': {
          const checked = fieldValueOfText(column.field, cell, members);
          if (!checked.ok) problem(checked.message, checked.params);
          else if (checked.value !== null) (unit.fields ??= {})[column.field.key] = checked.value;
          return;
        }
        case 'due': {
          const value = cell.trim();
          if (value === '') return;
          const due = parseDue(value);
          if (!due) problem('“{{value}}” is not a date: write 2026-12-31 or 2026-12-31T18:00:00Z.', { value });
          else stageOf(column.stage).due = due;
          return;
        }
      }
    });
    rows.push(unit);
  }
  if (problems.length > 0) return refused(problems);
  if (dryRun) return { created: rows.length, dryRun, problems: [] };
  const created = await createImportedUnits(db, {
    userId,
    projectId: fields.project,
    pipelineId: fields.pipeline,
    rows,
  });
  return { created: created.length, dryRun, problems: [] };
}

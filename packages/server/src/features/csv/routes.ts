import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  Limits,
  ZCsvExportQuery,
  ZIdParams,
  ZTaskListQuery,
  ZUnitImportFields,
  ZUnitImportResult,
  type TUnitImportResult,
} from '@stageline/shared';
import type { Db } from '../../db';
import { FieldError } from '../../http/errors';
import { readUploadedForm } from '../../http/upload';
import { callerOf } from '../auth';
import { recordExport } from '../audit';
import { exportPipeline, exportTaskList, type CsvExport } from './export';
import { readCsv, toCsv, type CsvDelimiter } from './format';
import { importUnits, type ImportOutcome } from './import';

const bearer = [{ bearer: [] }];
const forbidden = 'Non-members of the workspace get 404; members without the right 403.';

export const csvFile = z.string().meta({
  description:
    'UTF-8 with a BOM, CRLF line ends; fields quoted when they hold `,`, `;`, a tab, a quote or a line end, ' +
    "and a `'` before `=`, `+`, `-`, `@`, a tab or a CR at the start of a field or after one of those.",
  examples: [
    '\uFEFFid,name,description,Layout: status,Layout: assignees,Layout: due\r\n12,SH010,,todo,anna; boris,2026-12-31T00:00:00.000Z\r\n',
  ],
});

/**
 * The import's multipart form, for the OpenAPI document only. Its JSON schema rides on a schema
 * that accepts anything, so validation lets every body by: a multipart request has no parsed body
 * (`readUploadedForm` reads the parts), and anything else is the upload helper's 415.
 */
const { $schema: _draft, ...importFormSchema } = z.toJSONSchema(
  ZUnitImportFields.extend({ file: z.string().meta({ format: 'binary', description: 'The CSV file' }) }),
  { io: 'input' },
);
const ZImportForm = z.unknown().meta({
  ...importFormSchema,
  examples: [{ project: 5, pipeline: 7, dry_run: 'true', file: 'name,description\r\nSH010,Wide\r\n' }],
});

/** The other 400s of the import: field errors of the form fields, or a refused upload. */
const ZOtherRefusal = z.union([
  z.record(z.string(), z.array(z.string())),
  z.looseObject({ detail: z.string(), code: z.string() }),
]);

/** Exports go out as files: the CSV text with its disposition. */
export function sendCsv(reply: FastifyReply, table: CsvExport, delimiter: CsvDelimiter) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', attachmentOf(table.filename))
    .send(Buffer.from(toCsv(table.header, table.rows, delimiter), 'utf8'));
}

/** The `Content-Disposition` of a download: an ASCII fallback name and the real one (RFC 6266). */
function attachmentOf(name: string): string {
  const ascii =
    name
      .replace(/\.csv$/, '')
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'export';
  return `attachment; filename="${ascii}.csv"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** The answer of an import, its messages in the caller's language. */
function present(request: FastifyRequest, outcome: ImportOutcome): TUnitImportResult {
  return {
    created: outcome.created,
    dry_run: outcome.dryRun,
    errors: outcome.problems.map((p) => ({
      line: p.line,
      field: p.field,
      message: request.t(p.message, p.params ?? {}),
    })),
  };
}

/** CSV export of a pipeline's units and of task lists, import of units (issue 15, docs/integrations.md). */
export const csvRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const signedIn = { onRequest: app.authenticate };
  await app.register(multipart, { limits: { fileSize: Limits.csvImport.maxBytes, files: 1, fields: 10, parts: 12 } });

  app.get(
    '/pipelines/:id/export.csv',
    {
      ...signedIn,
      schema: {
        tags: ['units'],
        summary:
          "A pipeline's units as CSV: id, name, description, then per stage in flow order its status, assignees, due",
        description:
          `${forbidden} Units in the matrix's name order; assignees are usernames separated by \`; \`; due dates ` +
          'ISO 8601 in UTC. `delimiter=semicolon` for spreadsheet programs in locales that expect it.',
        security: bearer,
        produces: ['text/csv'],
        params: ZIdParams,
        querystring: ZCsvExportQuery,
        response: { 200: csvFile },
      },
    },
    async (request, reply) => {
      const userId = callerOf(request).id;
      const table = await exportPipeline(db, { userId, pipelineId: request.params.id });
      await recordExport(db, {
        userId,
        workspaceId: table.workspaceId,
        target: { kind: 'pipeline', id: request.params.id, name: table.filename.replace(/\.csv$/, '') },
        details: { what: 'pipeline', file: table.filename, rows: table.rows.length },
      });
      return sendCsv(reply, table, request.query.delimiter);
    },
  );

  app.get(
    '/tasks/export.csv',
    {
      ...signedIn,
      schema: {
        tags: ['tasks'],
        summary: 'Every task `GET tasks/` lists with the same filters, as CSV (no paging)',
        description:
          'Columns: id, project, pipeline, unit, stage, status, ready, overdue, due (ISO 8601, UTC), assignees ' +
          '(usernames separated by `; `). A named workspace, pipeline or unit the caller cannot see answers 404.',
        security: bearer,
        produces: ['text/csv'],
        querystring: ZTaskListQuery.omit({ offset: true, limit: true }).extend(ZCsvExportQuery.shape),
        response: { 200: csvFile },
      },
    },
    async (request, reply) => {
      const { delimiter, ...query } = request.query;
      const userId = callerOf(request).id;
      const table = await exportTaskList(db, { userId, query });
      await recordExport(db, {
        userId,
        workspaceId: query.workspace,
        details: { what: 'tasks', file: table.filename, rows: table.rows.length, filters: query },
      });
      return sendCsv(reply, table, delimiter);
    },
  );

  app.post(
    '/units/import/',
    {
      ...signedIn,
      schema: {
        tags: ['units'],
        summary: 'Create units from a CSV file, all or nothing (Member and above); `dry_run=true` only checks',
        description:
          `${forbidden} Multipart fields \`file\` (CSV, UTF-8, comma or semicolon, up to 10,000 units and ` +
          '16 MB, 413 above), `project`, `pipeline`, `dry_run`. Columns: `name` (required), `description`, ' +
          '`<stage>: assignees` (usernames or e-mails of members, `;` or `,` between them), `<stage>: due`; `id` ' +
          'and `<stage>: status` of an export are ignored, any other column is an error. A file with any error ' +
          'writes nothing and answers 400 with this same body, `created: 0` and every problem (the first 200) by line.',
        security: bearer,
        consumes: ['multipart/form-data'],
        body: ZImportForm,
        response: { 200: ZUnitImportResult, 400: z.union([ZUnitImportResult, ZOtherRefusal]) },
      },
    },
    async (request, reply) => {
      const { file: table, fields } = await readUploadedForm(request, {
        field: 'file',
        maxBytes: Limits.csvImport.maxBytes,
        read: (file) => readCsv(file, { maxRecords: Limits.csvImport.maxLines }),
      });
      const parsed = ZUnitImportFields.safeParse(fields);
      if (!parsed.success) {
        const errors: Record<string, string[]> = {};
        for (const issue of parsed.error.issues) (errors[String(issue.path[0] ?? 'detail')] ??= []).push(issue.message);
        throw new FieldError(errors);
      }
      const outcome = await importUnits(db, { userId: callerOf(request).id, fields: parsed.data, table });
      const body = present(request, outcome);
      if (body.errors.length > 0) return reply.status(400).send(body);
      return body;
    },
  );
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuditLimits, ZCsvExportQuery, ZIdParams } from '@stageline/shared';
import { ZAuditPage, ZAuditQuery } from '@stageline/shared/audit';
import type { Db } from '../../db';
import { callerOf } from '../auth';
import { csvFile, sendCsv } from '../csv';
import { exportAudit, listAudit } from './service';

const bearer = [{ bearer: [] }];
const tags = ['audit'];
const who =
  'Admins and the Owner of the workspace; Members and Guests get 403, non-members 404. Entries cannot be ' +
  'changed or deleted through the API (the database refuses it too); they are kept for the ' +
  "workspace's `audit_retention_days` (365 by default).";

/** The workspace audit log: its list and CSV export (docs/history-and-audit.md). */
export const auditLogRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const signedIn = { onRequest: app.authenticate };

  app.get(
    '/workspaces/:id/audit/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'The audit log of a workspace, newest first: filter by person, action and days; paged by `before`',
        description:
          `${who} \`from\` and \`to\` are UTC days, both included. A page holds \`limit\` entries ` +
          `(${AuditLimits.page.default} by default, at most ${AuditLimits.page.max}); pass \`next\` as \`before\` for the next. ` +
          'Account events (sign-ins, passwords, 2FA, sessions, API tokens) appear in every workspace of the account.',
        security: bearer,
        params: ZIdParams,
        querystring: ZAuditQuery,
        response: { 200: ZAuditPage },
      },
    },
    async (request) =>
      listAudit(db, { userId: callerOf(request).id, workspaceId: request.params.id, query: request.query }),
  );

  app.get(
    '/workspaces/:id/audit/export.csv',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'The filtered audit log as CSV (no paging); the export is itself recorded',
        description: `${who} Columns: id, at, action, actor, target, target_id, target_name, address, user_agent, details (JSON). At most ${AuditLimits.exportRows} rows.`,
        security: bearer,
        produces: ['text/csv'],
        params: ZIdParams,
        querystring: ZAuditQuery.omit({ before: true, limit: true }).extend(ZCsvExportQuery.shape),
        response: { 200: csvFile },
      },
    },
    async (request, reply) => {
      const { delimiter, ...filters } = request.query;
      const table = await exportAudit(db, { userId: callerOf(request).id, workspaceId: request.params.id, filters });
      return sendCsv(reply, table, delimiter);
    },
  );
};

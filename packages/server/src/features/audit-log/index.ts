/** Reading the workspace audit log and its retention job (docs/history-and-audit.md). */
export { auditLogRoutes } from './routes';
export { pruneAuditLog } from './service';

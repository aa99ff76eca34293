/** Writing the workspace audit log (docs/history-and-audit.md); reading it is `features/audit-log`. */
export { recordAccountAudit, recordAudit, recordExport, type AuditEntry, type AuditTarget } from './record';
export { currentClient, registerAuditScope, type AuditClient } from './scope';

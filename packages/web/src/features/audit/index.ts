/** The workspace audit log's screen (docs/history-and-audit.md). */
export { AuditLogSection } from './components/audit-log-section';

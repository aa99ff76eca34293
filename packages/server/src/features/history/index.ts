/** Writing the history of units and tasks (docs/history-and-audit.md); reading it is `features/record-history`. */
export { recordHistory, type HistoryChange } from './record';

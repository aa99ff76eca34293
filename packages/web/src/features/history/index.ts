/** The history timeline of units and tasks (docs/history-and-audit.md). */
export { historyKeys } from './api';
export { HistoryTimeline } from './components/history-timeline';

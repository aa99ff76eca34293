/** What the rest of the app may use of the tasks feature (STYLE.md: features talk through exports). */
export { TaskStatusBadge, TaskFlags } from './components/task-status-badge';
export { statusColors } from './components/status-colors';
export {
  membersQueryOptions,
  taskKeys,
  taskListQueryOptions,
  useMembers,
  useTaskList,
  useTaskPages,
  type TMember,
  type TTaskListQuery,
} from './api';
export { TaskCrumbs } from './components/task-crumbs';

/** What the rest of the app may use of the tasks feature (STYLE.md: features talk through exports). */
export { taskKeys, taskListQueryOptions, useTaskList, useTaskPages, type TTaskListQuery } from './api';
export { TaskCrumbs } from './components/task-crumbs';

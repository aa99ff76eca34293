/** What the rest of the app may use of the tasks feature (docs/architecture.md §Layers: features talk through exports). */
export { taskKeys, useTaskPages, type TTaskListQuery } from './api';
export { TaskCrumbs } from './components/task-crumbs';
export { PipelineFocus } from './components/pipeline-focus';
export { TakeTaskButton } from './components/task-teams';
export { RejectDialog } from './components/reject-dialog';
export { ClientFeedbackList } from './components/client-feedback';

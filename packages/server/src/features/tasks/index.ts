/** What other features use of tasks: the routes, unit creation with tasks, the graph hooks' work, counters, cells. */
export { tasksRoutes } from './routes';
export { actOnTask, patchTask } from './actions';
export {
  createTasksForStages,
  deleteTasksOfStages,
  insertUnitsWithTasks,
  lockGraphForShare,
  refreshPipelineReadiness,
} from './create';
export { countTasks, zeroCounters } from './counters';
export { exportTasks } from './list';
export { loadCells, loadGraph, loadGraphFor, type PipelineGraph, type PipelineGraphFor } from './read';
export { at, effectiveDue, idList, overdueAt, readySql, rowsOf, stageDue, tasksOfPerson } from './sql';
export { effectivePeople } from './state';
export { effectivePeopleRows } from './context';
export { tasksOfTeam } from './teams';

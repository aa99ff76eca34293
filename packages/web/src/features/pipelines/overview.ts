/**
 * The project overview's piece of pipelines (the project screen gets it from the app's routing):
 * an entry of its own, so the project screen loads neither React Flow nor the editor.
 */
export { ProjectProgress } from './overview/project-progress';

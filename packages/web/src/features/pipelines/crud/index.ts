/** The pipeline CRUD pieces the app shell needs (the breadcrumb); the screens load lazily. */
export { PipelineCrumb } from './pipeline-crumb';
/** The pipelines' query keys, for features whose changes move a pipeline's counters. */
export { pipelineKeys } from '../crud-api';

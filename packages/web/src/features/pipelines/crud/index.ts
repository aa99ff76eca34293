/** The pipeline CRUD pieces the app shell needs (the breadcrumb); the screens load lazily. */
export { PipelineCrumb } from './pipeline-crumb';

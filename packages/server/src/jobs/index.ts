/** The durable job scheduler (pg-boss) and the app's recurring jobs. */
export { appJobs } from './jobs';
export { createScheduler, jobsSchema, type JobDefinition, type Scheduler } from './scheduler';

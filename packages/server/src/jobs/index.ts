/** The durable job scheduler (pg-boss) and the app's recurring jobs. */
export { appJobs, digestJobName, pruneEventsJob } from './jobs';
export { createScheduler, jobsSchema, pgliteAdapter, type JobDefinition, type Scheduler } from './scheduler';

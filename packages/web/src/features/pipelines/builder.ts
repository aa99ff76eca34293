/**
 * What other lazily loaded screens (the quickstart) use to build a pipeline without the diagram
 * editor: the same API calls and the same stage settings drawer. Kept out of `index.ts`, which the
 * app shell loads at start.
 */
export { saveGraph } from './api';
export { pipelineRecordQueryOptions, pipelinesQueryOptions, useCreatePipeline } from './crud-api';
export { StageSettingsDrawerOnDemand } from './components/stage-settings-on-demand';

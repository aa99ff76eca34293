/**
 * What other features read of pipelines (the task screen's Diagram tab, the unit screens): the
 * read-only diagram and the helpers that turn a pipeline into its nodes, the pipeline query and the
 * project's pipeline list. A separate entry from index.ts, so the app shell's first chunk does not
 * carry React Flow.
 */
export { PipelineDiagram } from './components/pipeline-diagram';
export { pipelineQuery, usePipeline } from './api';
export { pipelineNamesQueryOptions, usePipelineNames } from './crud-api';
export { needsLayout, pipelineToSnapshot, type TFlowNode } from './lib/graph-model';
export { useDiagramLayout } from './hooks/use-diagram-layout';
export type { TPipelineFocusProps } from './routes/pipeline';

// Only what the app shell needs at start: the rest of the feature loads with its lazy screens.
export { purgeStalePipelineStates } from './lib/local-state';

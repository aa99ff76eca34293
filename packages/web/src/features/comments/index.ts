/** What the rest of the app may use of the comments feature (docs/architecture.md §Layers: features talk through exports). */
export { CommentsPanel } from './components/comments-panel';
export { applyCommentEvent, commentKeys } from './api';

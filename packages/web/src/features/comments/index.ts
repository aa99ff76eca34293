/** What the rest of the app may use of the comments feature (STYLE.md: features talk through exports). */
export { CommentsPanel } from './components/comments-panel';
export { applyCommentEvent, commentKeys, type TCommentTarget } from './api';

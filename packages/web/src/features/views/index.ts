/** Saved views of the matrix and task lists: the menu beside the filters, and the calls the palette uses. */
export { SavedViews } from './components/saved-views';
export { viewSearch, viewsQueryOptions } from './api';

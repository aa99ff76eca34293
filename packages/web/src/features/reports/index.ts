/**
 * What the rest of the app may use of the reports feature: its query keys (the live dispatcher
 * invalidates them). The screen loads with its lazy route, charts and all.
 */
export { reportKeys } from './api';

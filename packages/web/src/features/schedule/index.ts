/** What the rest of the app may use of the schedule: its query keys (the live dispatcher invalidates them). */
export { scheduleKeys } from './api';

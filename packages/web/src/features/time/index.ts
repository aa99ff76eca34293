/** What the rest of the app may use of time (docs/time.md): the task screen's timer, the query keys. */
export { timeKeys } from './api';
export { TimerButton } from './components/timer-button';

/** What the rest of the app may use of the schedule: its query keys (the live dispatcher invalidates them), the profile's feed section. */
export { scheduleKeys } from './api';
export { CalendarFeedSection } from './components/calendar-feed-section';

import { create } from 'zustand';
import { isTimeZone } from '@stageline/shared';

/** The time zone this browser runs in (`Europe/Berlin`), or UTC when it cannot tell. */
export function browserTimeZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isTimeZone(zone) ? zone : 'UTC';
}

type TTimeZoneState = { timeZone: string; set: (timeZone: string) => void };

/**
 * The time zone dates are shown in: the signed-in user's (set by the session once users/me/ is
 * read), else this browser's. Kept here so shared date helpers can read it without the auth feature.
 */
export const useTimeZoneStore = create<TTimeZoneState>((set) => ({
  timeZone: browserTimeZone(),
  set: (timeZone) => set({ timeZone }),
}));

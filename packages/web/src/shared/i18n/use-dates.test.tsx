import { renderHook } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { useTimeZoneStore } from '../lib/time-zone';
import { initI18n } from './index';
import { useDates } from './use-dates';

beforeAll(async () => {
  await initI18n().changeLanguage('en');
});
afterEach(() => {
  vi.useRealTimers();
  useTimeZoneStore.getState().set('UTC');
});

describe('useDates follows the user’s time zone, not the browser’s', () => {
  it('turns Today and Tomorrow at the user’s midnight', () => {
    vi.useFakeTimers({ now: new Date('2026-11-23T20:00:00Z'), toFake: ['Date'] });
    useTimeZoneStore.getState().set('UTC');
    const utc = renderHook(() => useDates()).result.current;
    expect(utc.formatCalendar('2026-11-24T01:00:00Z')).toBe('Tomorrow');

    useTimeZoneStore.getState().set('Asia/Tokyo'); // already 05:00 on the 24th there
    const tokyo = renderHook(() => useDates()).result.current;
    expect(tokyo.timeZone).toBe('Asia/Tokyo');
    expect(tokyo.formatCalendar('2026-11-24T01:00:00Z')).toBe('Today');
    expect(tokyo.formatTime('2026-11-23T22:00:00Z')).toBe('7:00 AM');
  });

  it('round-trips a picked wall-clock time to the instant of the user’s zone', () => {
    useTimeZoneStore.getState().set('Asia/Tokyo');
    const dates = renderHook(() => useDates()).result.current;
    const picked = dates.toPicker('2026-11-23T22:00:00Z');
    expect([picked.getDate(), picked.getHours(), picked.getMinutes()]).toEqual([24, 7, 0]);
    expect(dates.fromPicker(picked).toISOString()).toBe('2026-11-23T22:00:00.000Z');
  });
});

import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, onForcedLogout } from '../../../shared/api';
import { queryClient } from '../../../shared/api/query-client';
import { tokenStore } from '../../../shared/api/tokens';
import { browserTimeZone, useTimeZoneStore } from '../../../shared/lib/time-zone';
import type { TMe } from '@stageline/shared';
import { meQueryKey, meQueryOptions, saveTimeZone } from '../api';
import { useAccessToken } from './access';
import { maxTimerDelayMs, refreshDelay } from './jwt';

/** PATCH users/{id}/ with the browser's time zone, for an account that never told one. */
async function saveDetectedTimeZone(userId: number, timeZone: string): Promise<void> {
  await saveTimeZone(userId, timeZone);
  queryClient.setQueryData<TMe>(meQueryKey, (old) => (old ? { ...old, time_zone: timeZone } : old));
}

/** After a refresh that failed for a network or server reason, try again this much later. */
const retryAfterFailureMs = 15_000;

/**
 * Keeps the session alive and clean; mounted once at the root. It refreshes the access token shortly
 * before it expires (so requests rarely meet a 401), again when a sleeping tab wakes up, and empties
 * the query cache when the transport ends the session. It also sets the time zone dates are shown
 * in: the user's, or this browser's until they tell one.
 */
export function SessionKeeper() {
  const access = useAccessToken();

  useEffect(() => onForcedLogout(() => queryClient.clear()), []);

  // Dates follow the user's time zone; an account that never told one gets this browser's.
  // The app's client, given here: this keeper is mounted at the root, above any query provider.
  const me = useQuery({ ...meQueryOptions(), enabled: access !== null }, queryClient);
  const userId = me.data?.id;
  const savedZone = me.data?.time_zone;
  useEffect(() => {
    if (userId === undefined || savedZone === undefined) {
      useTimeZoneStore.getState().set(browserTimeZone());
      return;
    }
    useTimeZoneStore.getState().set(savedZone ?? browserTimeZone());
    if (savedZone === null) void saveDetectedTimeZone(userId, browserTimeZone()).catch(() => undefined);
  }, [userId, savedZone]);

  useEffect(() => {
    if (!access) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;

    const schedule = (delay: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => void tick(), Math.min(delay, maxTimerDelayMs));
    };
    const tick = async () => {
      if (stopped || tokenStore.access() !== access) return; // a newer token re-runs this effect
      const delay = refreshDelay(access, Date.now());
      if (delay === null) return;
      if (delay > 0) return schedule(delay);
      const outcome = await api.refresh();
      if (!stopped && outcome === 'failed') schedule(retryAfterFailureMs);
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible') void tick();
    };

    void tick();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [access]);

  return null;
}

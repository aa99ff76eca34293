import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../../shared/api';
import { queryClient } from '../../../shared/api/query-client';
import { tokenStore } from '../../../shared/api/tokens';
import { currentLanguage, i18n } from '../../../shared/i18n';
import { createLiveStream, type TLiveStream } from '../../../shared/live/live-stream';
import { showToast } from '../../../shared/ui/toast';

const loadDispatcher = () => import('./dispatch');

/** The stream of the tab, for tests and the debug console. */
let active: TLiveStream | null = null;
export const activeLiveStream = () => active;

/**
 * Keeps this tab's one connection to `GET /api/events/` while the signed-in shell is shown and
 * hands each event to the dispatcher (loaded with the first event, so the shell's chunk stays
 * small). Signing out (the token store emptied) or leaving the shell closes it.
 */
export function LiveEvents() {
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  useEffect(() => {
    navigateRef.current = navigate;
  }, [navigate]);

  useEffect(() => {
    let dispatcher: ReturnType<typeof loadDispatcher> | null = null;
    const stream = createLiveStream({
      url: '/api/events/',
      getToken: () => tokenStore.get()?.access ?? null,
      refresh: () => api.refresh(),
      getLanguage: currentLanguage,
      onMessage: (message) => {
        // Loaded with the first event, not with the shell: every later event waits on the same
        // promise, so events are handled in the order they came.
        dispatcher ??= loadDispatcher();
        void dispatcher.then(({ parseLiveMessage, dispatchLiveEvent }) => {
          const event = parseLiveMessage(message);
          if (!event) return;
          dispatchLiveEvent(event, {
            queryClient,
            t: (key, params) => i18n.t(key, params),
            toast: showToast,
            navigate: (path) => void navigateRef.current(path),
          });
        });
      },
    });
    active = stream;
    stream.start();
    const unsubscribe = tokenStore.subscribe(() => {
      if (tokenStore.get()) stream.start();
      else stream.stop();
    });
    return () => {
      unsubscribe();
      stream.stop();
      if (active === stream) active = null;
    };
  }, []);

  return null;
}

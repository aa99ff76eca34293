import { useCallback, useEffect, useState } from 'react';

/**
 * Fullscreen for the diagram: the Fullscreen API on the document (so modals, which portal to the
 * body, stay visible) with the diagram's container fixed over the window; where the API is missing
 * or refused, the fixed container alone.
 */
export function useFullscreen() {
  const [on, setOn] = useState(false);
  useEffect(() => {
    const sync = () => {
      if (!document.fullscreenElement) setOn(false);
    };
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, []);
  useEffect(() => {
    if (!on) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !document.fullscreenElement) setOn(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [on]);
  const toggle = useCallback(() => {
    if (on) {
      setOn(false);
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
      return;
    }
    setOn(true);
    const root = document.documentElement;
    if (typeof root.requestFullscreen === 'function') void root.requestFullscreen().catch(() => undefined);
  }, [on]);
  return { fullscreen: on, toggleFullscreen: toggle };
}

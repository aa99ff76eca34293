/**
 * Runs `run` when the browser is idle (at the latest after `timeoutMs`), or after a short delay where
 * it cannot tell; returns the function that cancels it. For what a page fetches after its first
 * render (docs/decisions.md, entry 118).
 */
export function whenIdle(run: () => void, timeoutMs = 2_000): () => void {
  if ('requestIdleCallback' in window) {
    const handle = window.requestIdleCallback(run, { timeout: timeoutMs });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = setTimeout(run, 200);
  return () => clearTimeout(timer);
}

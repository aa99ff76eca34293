/**
 * A module (or what it exports) fetched once for everyone who asks, and remembered once it has
 * arrived, for code that must run synchronously when it can (a form's validation, a menu drawn in
 * place of its button). A failed fetch is forgotten, so the next ask tries again.
 */
export function loadOnce<T>(fetch: () => Promise<T>): { load: () => Promise<T>; loaded: () => T | null } {
  let value: T | null = null;
  let pending: Promise<T> | null = null;
  return {
    load: () =>
      (pending ??= fetch().then(
        (arrived) => (value = arrived),
        (error: unknown) => {
          pending = null;
          throw error;
        },
      )),
    loaded: () => value,
  };
}

import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Counting the statements a piece of work sends to the database (docs/architecture.md, "Statements"):
 * the drivers' wrappers in `index.ts` add one per statement, BEGIN and COMMIT included, to the count
 * of the async context they run in. Work woken by a NOTIFY runs outside any count, so a request's
 * count is its own and does not depend on when the live-event or webhook consumers wake.
 */
const scope = new AsyncLocalStorage<{ count: number }>();

/** Adds one statement to the current count, if something is counting. */
export function countStatement(): void {
  const current = scope.getStore();
  if (current) current.count += 1;
}

/**
 * Runs `work` and tells how many statements it sent (its own async context only). Awaited inside the
 * context: Drizzle queries and `app.inject()` start only when awaited.
 */
export async function countStatements<T>(work: () => PromiseLike<T>): Promise<{ result: T; statements: number }> {
  const store = { count: 0 };
  const result = await scope.run(store, async () => await work());
  return { result, statements: store.count };
}

/** `callback` as a function that runs outside any count (for LISTEN consumers). */
export const uncounted =
  <A extends unknown[]>(callback: (...args: A) => void) =>
  (...args: A): void =>
    scope.exit(() => callback(...args));

/** Runs `work` outside any count (bookkeeping of the database, such as a PREPARE, not of the request). */
export const uncountedWork = <T>(work: () => Promise<T>): Promise<T> => scope.exit(work);

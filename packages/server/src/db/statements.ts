import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Counting the statements a piece of work sends to the database (docs/architecture.md, "Statements"):
 * the drivers' wrappers in `index.ts` add one per statement, BEGIN and COMMIT included, to the count
 * of the async context they run in. Work woken by a NOTIFY runs outside any count, so a request's
 * count is its own and does not depend on when the live-event or webhook consumers wake.
 */
type Tally = { count: number; ms: number; parent?: Tally };
const scope = new AsyncLocalStorage<Tally>();

/** Adds one statement to the current count, and to every count it runs inside, if something is counting. */
export function countStatement(): void {
  for (let tally = scope.getStore(); tally; tally = tally.parent) tally.count += 1;
}

/**
 * What a statement about to run adds its time to: the tallies it runs inside (none: undefined). The
 * driver wrappers call it when the statement is sent and the answer when it has run, so the time is
 * the statement's own, not its wait for the connection.
 */
export function statementTimer(): ((ms: number) => void) | undefined {
  const current = scope.getStore();
  if (!current) return undefined;
  return (ms) => {
    for (let tally: Tally | undefined = current; tally; tally = tally.parent) tally.ms += ms;
  };
}

/**
 * Tallies a request's statements and their time (docs/operations.md, "Slow requests"): `next` and all
 * it starts run inside the tally, nested in any count already running (a test's `countStatements`).
 */
export function tallyRequest(next: () => void): Readonly<{ count: number; ms: number }> {
  const tally: Tally = { count: 0, ms: 0, parent: scope.getStore() };
  scope.run(tally, next);
  return tally;
}

/**
 * Runs `work` and tells how many statements it sent (its own async context only). Awaited inside the
 * context: Drizzle queries and `app.inject()` start only when awaited.
 */
export async function countStatements<T>(work: () => PromiseLike<T>): Promise<{ result: T; statements: number }> {
  const store: Tally = { count: 0, ms: 0, parent: scope.getStore() };
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

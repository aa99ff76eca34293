/**
 * How `Database.ping` knows the database answers (docs/decisions.md, 167). A statement that
 * succeeded within the last second is proof enough: the health check then answers at once instead
 * of waiting its turn behind the requests' statements (the embedded database runs one at a time, so
 * under load a `select 1` waited 300–600 ms for no new information). With no such statement, the
 * ping sends its own, so a database that stopped answering (a long lock, a server gone) fails the
 * check within a second.
 */
export const freshAnswerMs = 1_000;

export type Liveness = {
  /** Wraps a statement's promise: its success counts as an answer. */
  answered<T>(statement: Promise<T>): Promise<T>;
  /** A statement answered (for drivers that call back rather than resolve). */
  noteAnswer(): void;
  /** Resolves at once after a recent answer; otherwise runs `probe` (a `select 1`). */
  ping(): Promise<void>;
  /** Forgets the answers so far (the database was closed). */
  forget(): void;
};

export function createLiveness(probe: () => Promise<unknown>): Liveness {
  let lastAnswer = Number.NEGATIVE_INFINITY;
  const note = () => {
    lastAnswer = performance.now();
  };
  return {
    answered(statement) {
      statement.then(note, () => undefined);
      return statement;
    },
    noteAnswer: note,
    async ping() {
      if (performance.now() - lastAnswer < freshAnswerMs) return;
      await probe();
      note();
    },
    forget() {
      lastAnswer = Number.NEGATIVE_INFINITY;
    },
  };
}

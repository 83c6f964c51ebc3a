// How a synchronous rule of the core (the allocation rule, the report matcher) runs against an
// asynchronous database without the core knowing which store it has. The rule gets a view whose
// answers were fetched beforehand; asked something not fetched yet, the view notes the question
// and throws a private marker that stops the run. The adapter fetches what was asked (inside the
// same transaction) and runs the rule again from the start. Rules are pure and deterministic, so
// every run asks the same questions in the same order and a rerun only gets further; the last run
// sees every answer it needs and returns the decision. SQLite never takes this path: its views
// answer synchronously.

/** Stops one run of the rule; never seen outside `replay`. */
class NotFetchedYet {
  constructor(readonly key: string) {}
}

/** A rule that keeps asking new questions is a bug, not a workload: stop it rather than loop. */
const MAX_RUNS = 10_000;

export class Answers {
  private readonly known = new Map<string, unknown>();
  private readonly wanted = new Map<string, () => Promise<unknown>>();

  /** The fetched answer to `key`; the first time, a note to fetch it and a stop. */
  ask<T>(key: string, fetch: () => Promise<T>): T {
    if (this.known.has(key)) return this.known.get(key) as T;
    this.wanted.set(key, fetch);
    throw new NotFetchedYet(key);
  }

  get waiting(): boolean {
    return this.wanted.size > 0;
  }

  /**
   * Sends the noted questions now, each a query on the transaction's connection behind whatever was
   * sent before it, and forgets them: the answers are the caller's to keep (`seed`) once it knows
   * they stand (report-match.ts, the guessed first question).
   */
  sendWanted(): [string, Promise<unknown>][] {
    const sent = [...this.wanted].map(([key, fetch]): [string, Promise<unknown>] => [key, fetch()]);
    this.wanted.clear();
    return sent;
  }

  /** An answer fetched beforehand, kept as if this run had asked and fetched it. */
  seed(key: string, value: unknown): void {
    this.known.set(key, value);
  }

  /** Fetches the noted questions one after another (one transaction's connection takes one at a time). */
  async fetch(): Promise<void> {
    for (const [key, fetch] of this.wanted) this.known.set(key, await fetch());
    this.wanted.clear();
  }
}

/**
 * Runs `rule` once and notes the first question it has no answer for (none if it decided): what a
 * run of `replay` would fetch first.
 */
export function firstQuestion(rule: (answers: Answers) => unknown, answers: Answers): void {
  try {
    rule(answers);
  } catch {
    // The marker, or the rule's own error, which the real run meets again and throws.
  }
}

/**
 * Runs `rule` until it decides with fetched answers only. A rule that caught the marker itself and
 * returned anyway is run again too: an answer built on a missing fact is never used.
 */
export async function replay<R>(rule: (answers: Answers) => R, answers = new Answers()): Promise<R> {
  for (let run = 1; run <= MAX_RUNS; run++) {
    let result: R | undefined;
    try {
      result = rule(answers);
    } catch (e) {
      if (!(e instanceof NotFetchedYet)) throw e;
    }
    if (!answers.waiting) return result as R;
    await answers.fetch();
  }
  throw new Error(`a store rule asked more than ${MAX_RUNS} questions`);
}

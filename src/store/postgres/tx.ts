// Units of work on PostgreSQL: one transaction each, retried when the server chose it as the victim
// of a deadlock or a serialization failure (it rolled everything back, so a rerun is clean), and
// advisory locks that serialize the units competing for one thing across every instance.
import { SQL } from "bun";

export type Db = SQL;

const RETRYABLE = new Set(["40001", "40P01"]); // serialization_failure, deadlock_detected
const MAX_TRIES = 8;

export function sqlState(e: unknown): string | undefined {
  return e instanceof SQL.PostgresError ? (e as { errno?: string }).errno : undefined;
}

/** Runs `work` in a transaction; a rerun after a retryable failure starts from nothing. */
export function unit<T>(sql: SQL, work: (tx: SQL) => Promise<T>): Promise<T> {
  return retried(() => sql.begin((tx) => work(tx)) as Promise<T>);
}

/**
 * Reruns `work` after a retryable failure. Alone, for one statement that is its own transaction
 * (no BEGIN and COMMIT round trips): the create function's call (create.ts).
 */
export async function retried<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (e) {
      const state = sqlState(e);
      if (attempt >= MAX_TRIES || state === undefined || !RETRYABLE.has(state)) throw e;
    }
  }
}

/**
 * What a transaction-scoped advisory lock serializes. The two-key form (namespace, hash) keeps the
 * kinds apart; a hash collision only makes two unrelated units wait for each other.
 */
export const Lock = {
  migrations: 1,
  /** One merchant's out_trade_no: a create retried on another instance finds the first one's order. */
  outTradeNo: 2,
  /** One report dedupe key: fifty copies of one report settle one after another. */
  reportKey: 3,
  /** One (pay type, code) of the accounts: two operators cannot add the same account twice. */
  channelCode: 4,
  /** The bounded refusal bookkeeping (counters, kept rows). */
  refusals: 5,
  /** V免签 client names and keys. */
  vmqClients: 6,
  /** The next merchant pid. */
  merchants: 7,
  /** The alert passes' writes: one instance's pass at a time checks and moves the pass generation (alerts.ts). */
  alertPass: 8,
  /** The income rollup's fold (migration 039, xpay_rollup_fold, which takes it itself): one at a time. */
  rollupFold: 9,
} as const;

export async function lock(tx: SQL, kind: number, key = ""): Promise<void> {
  await tx`SELECT pg_advisory_xact_lock(${kind}::int, hashtext(${key}))`;
}

/** How a pipelined unit ends (pipelinedUnit). */
export interface Ending {
  /**
   * Sends `last` (queries not yet sent: Bun's queries are lazy until awaited) and COMMIT right behind
   * them, and answers with their results: the unit's last round trip is also its commit. If one of
   * them fails, the server turns the COMMIT into a ROLLBACK and the failure is thrown.
   */
  commitWith<T extends readonly unknown[]>(...last: { [K in keyof T]: PromiseLike<T[K]> }): Promise<T>;
}

/**
 * `unit` in two round trips fewer: on one reserved connection, BEGIN goes out with the unit's first
 * statements instead of alone (sql.begin waits for its answer), and the unit may send its COMMIT
 * with its last statements (`commitWith`) instead of alone after them. Statements go out in the
 * order they are first awaited, each behind the last on the one connection, so everything the
 * work sends is inside the transaction. Without a commitWith, COMMIT is sent when the work returns;
 * after a failure, ROLLBACK. Rerun after a retryable failure, as `unit`.
 */
export function pipelinedUnit<T>(sql: SQL, work: (tx: SQL, end: Ending) => Promise<T>): Promise<T> {
  return retried(async () => {
    const tx = await sql.reserve();
    let open = true;
    const end: Ending = {
      commitWith: async (...last) => {
        if (!open) throw new Error("the unit has ended");
        open = false;
        const answers = await Promise.all([...last, tx`COMMIT`]);
        return answers.slice(0, -1) as never;
      },
    };
    try {
      // Sent with the work's first statements; its failure fails them too, and is thrown by them.
      tx`BEGIN`.catch(() => {});
      const result = await work(tx, end);
      if (open) {
        open = false;
        await tx`COMMIT`;
      }
      return result;
    } catch (e) {
      if (open) {
        open = false;
        await tx`ROLLBACK`.catch(() => {});
      }
      throw e;
    } finally {
      await tx.release();
    }
  });
}

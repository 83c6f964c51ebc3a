// Notification attempts on PostgreSQL, recorded in batches. Each attempt used to be a transaction of
// its own (three statements and a commit that waits for its WAL flush); at a few hundred
// acknowledgements a second those commits were the notifier's cost. Attempts that finish while a
// batch is being written queue for the next one (a group commit: the slower the commit, the bigger
// the batch), and a batch is three statements whatever its size. A batch that fails is retried one
// attempt at a time, so one attempt that cannot be written (its row gone) never loses the others;
// the batch's transaction rolled back whole, so the retry starts from nothing.
import type { SQL } from "bun";
import type { AttemptOutcome } from "../../core/store.ts";
import { attemptError } from "../delivery-rows.ts";
import { amongIds } from "./listed.ts";
import { pipelinedUnit } from "./tx.ts";

export interface Ack {
  id: number;
  o: AttemptOutcome;
}

/** One merchant's share of a batch, folded in batch order as one attempt after another would leave its row. */
interface MerchantFold {
  pid: number;
  delivered: number;
  /** latest acknowledged attempt (null: none in the batch) */
  success_at: number | null;
  /** first failure after the batch's last success (or the batch's first failure when none succeeded) */
  failing_since: number | null;
  last_failure_at: number | null;
  last_error: string;
}

function fold(acks: Ack[], pidOf: Map<number, number>): MerchantFold[] {
  const byPid = new Map<number, MerchantFold>();
  for (const { id, o } of acks) {
    const pid = pidOf.get(id);
    if (pid === undefined) continue;
    let f = byPid.get(pid);
    if (!f) byPid.set(pid, (f = { pid, delivered: 0, success_at: null, failing_since: null, last_failure_at: null, last_error: "" }));
    const at = o.attempt.attemptedAt;
    if (o.status === "delivered") {
      f.delivered++;
      f.success_at = Math.max(f.success_at ?? 0, at);
      f.failing_since = null;
    } else {
      f.failing_since ??= at;
      f.last_failure_at = at;
      f.last_error = attemptError(o);
    }
  }
  return [...byPid.values()];
}

/**
 * Writes a batch of attempts in one transaction: the attempts, the rows' new state, each merchant's
 * delivery row. Two round trips (pipelinedUnit): BEGIN, the attempts and the rows' update sent
 * together; the merchants' rows with COMMIT.
 */
export function recordAttempts(sql: SQL, acks: Ack[]): Promise<void> {
  const attempts = JSON.stringify(acks.map(({ id, o }) => ({
    id, at: o.attempt.attemptedAt, dur: o.attempt.durationMs, http: o.attempt.httpStatus, body: o.attempt.body, error: o.attempt.error,
    ack: o.attempt.acknowledged ? 1 : 0, status: o.status, next: o.nextAttemptAt,
  })));
  return pipelinedUnit(sql, async (tx, end) => {
    const inserted = tx`
      INSERT INTO notification_attempts (notification_id, attempted_at, duration_ms, http_status, body, error, acknowledged)
      SELECT id, at, dur, http, body, error, ack
      FROM jsonb_to_recordset(${attempts}::text::jsonb) AS a(id bigint, at bigint, dur bigint, http integer, body text, error text, ack integer)`;
    // The rows by their ids: joined only to the attempts' records, whose count the planner cannot
    // know (it assumes 100), it read the whole outbox into a hash (1.5 ms at 3 000 rows, 2026-11-30)
    // where eight lookups of the key do. Listed (listed.ts), so the plan is kept: with an array,
    // batches under ten were planned again each time. The merchant is on the row (migration 037).
    const updated = tx`
      UPDATE notifications n SET attempts = n.attempts + 1, status = a.status, next_attempt_at = a.next, claimed_until = 0,
        delivered_at = CASE WHEN a.status = 'delivered' THEN a.at ELSE n.delivered_at END
      FROM jsonb_to_recordset(${attempts}::text::jsonb) AS a(id bigint, at bigint, status text, next bigint)
      WHERE n.id ${amongIds(tx, acks.map((a) => a.id))} AND n.id = a.id
      RETURNING n.id, n.pid`;
    const [, settled] = await Promise.all([inserted, updated]);
    const pidOf = new Map<number, number>(
      settled.filter((r: { pid: unknown }) => r.pid !== null).map((r: { id: unknown; pid: unknown }) => [Number(r.id), Number(r.pid)]),
    );
    const merchants = fold(acks, pidOf);
    if (merchants.length === 0) return;
    // The fold of each merchant's attempts applied to its row as they would have been one by one.
    await end.commitWith(tx`
      INSERT INTO merchant_delivery AS d (pid, last_success_at, failing_since, last_failure_at, last_error, delivered)
      SELECT pid, success_at, failing_since, last_failure_at, last_error, delivered
      FROM jsonb_to_recordset(${JSON.stringify(merchants)}::text::jsonb)
        AS f(pid bigint, delivered bigint, success_at bigint, failing_since bigint, last_failure_at bigint, last_error text)
      ON CONFLICT (pid) DO UPDATE SET
        last_success_at = CASE WHEN excluded.delivered > 0 THEN GREATEST(COALESCE(d.last_success_at, 0), excluded.last_success_at) ELSE d.last_success_at END,
        failing_since = CASE WHEN excluded.delivered > 0 THEN excluded.failing_since ELSE COALESCE(d.failing_since, excluded.failing_since) END,
        last_failure_at = COALESCE(excluded.last_failure_at, d.last_failure_at),
        last_error = CASE WHEN excluded.last_failure_at IS NOT NULL THEN excluded.last_error ELSE d.last_error END,
        delivered = d.delivered + excluded.delivered`);
  });
}

/** The store's recordNotificationAttempt: queues the attempt for the next batch; resolves once its batch committed. */
export function ackQueue(db: () => Promise<SQL>, timed: <T>(work: () => Promise<T>) => Promise<T> = (w) => w()): (id: number, o: AttemptOutcome) => Promise<void> {
  let queue: (Ack & { resolve(): void; reject(e: unknown): void })[] = [];
  let writing = false;

  async function write(): Promise<void> {
    await new Promise((r) => setImmediate(r)); // what finishes in this turn of the event loop joins the batch
    for (;;) {
      const batch = queue;
      queue = [];
      if (batch.length === 0) {
        writing = false; // synchronously with the check: an ack queued after it starts the next writer
        return;
      }
      try {
        const sql = await db();
        try {
          await timed(() => recordAttempts(sql, batch)); // one write transaction on /metrics, as SQLite's group commit
          for (const a of batch) a.resolve();
        } catch (e) {
          if (batch.length === 1) batch[0]!.reject(e);
          // In order, one after another: a merchant's row must see its attempts in the order they ended.
          else for (const a of batch) await recordAttempts(sql, [a]).then(a.resolve, a.reject);
        }
      } catch (e) {
        for (const a of batch) a.reject(e); // the store never opened
      }
    }
  }

  return (id, o) =>
    new Promise<void>((resolve, reject) => {
      queue.push({ id, o, resolve, reject });
      // One batch in flight at a time; what queues meanwhile goes in the next (the loop above).
      if (!writing) {
        writing = true;
        void write();
      }
    });
}

// Creates on PostgreSQL in batches (group commit): the creates that arrive in one turn of the event
// loop, or while the previous batch is in flight, go to the server as one call of
// xpay_create_orders (migration 028), at most CAP at a time, one or two batches at a time per store
// (call-share.ts: the instances on one database share the server's cores): one
// round trip, one transaction, one commit and one WAL flush for the batch instead of one per create.
// Every caller is answered after the call returned, that is after its commit. The server runs the
// units without a subtransaction each while none fails, 043's careful way when one does (044).
//
// A unit is answered alone: created or existing as create.ts answers it; busy (its accounts or its
// out_trade_no held by another instance's batch, its trade_no drawn twice) goes to the head of the
// next batch, whose first unit may wait for its lock, and after BUSY_ROUNDS such batches runs alone
// through create.ts (026's call, which waits as long as it takes); any other error runs it alone
// too, which raises the error as before. A batch the server refused whole (a value the JSON cannot
// carry) runs each of its units alone.
import type { SQL } from "bun";
import { NEAR } from "../../core/allocation.ts";
import type { CreateOrderResult, CreateOrderUnit } from "../../core/store.ts";
import { answer, createOrder, lockHold } from "./create.ts";
import { createOrderReplayed } from "./orders.ts";
import { retried } from "./tx.ts";

type Row = Record<string, unknown>;

/** Units per call. Each takes a subtransaction in the careful way; PostgreSQL caches 64 subtransaction ids per backend. */
export const CAP = 60;
/** Batches a busy unit goes through before it runs alone. */
const BUSY_ROUNDS = 4;
/** trade_nos drawn per unit (as create.ts). */
const DRAWS = 3;

interface Pending {
  u: CreateOrderUnit;
  busy: number;
  resolve: (r: CreateOrderResult) => void;
  reject: (e: unknown) => void;
}

/**
 * Batches and units per batch (bench/pg-creates.ts reads them); `careful`: the batches that ran
 * each unit in a subtransaction of its own (migration 044: a unit failed, or the first was busy).
 */
export const batchStats = { batches: 0, units: 0, busy: 0, alone: 0, refused: 0, careful: 0 };

/** A unit as the batch's JSON carries it (`i` its place, from 1; `busy`: busy in an earlier batch). */
export function batchElement(i: number, u: CreateOrderUnit, busy: boolean) {
  const o = u.order;
  const r = u.allocate?.request;
  return {
    i, tn: Array.from({ length: DRAWS }, () => u.newTradeNo()), pid: o.pid, otn: o.outTradeNo, family: o.family, pay_type: o.payType,
    name: o.name, amount: o.amount, notify_url: o.notifyUrl, return_url: o.returnUrl, param: o.param, clientip: o.clientip, device: o.device,
    extra: JSON.stringify(o.extra), now: u.now, expire: u.expireTime, alloc: r !== undefined, day_start: r?.dayStart ?? 0,
    max_offset: r?.maxOffset ?? 0, near: Math.min(r?.maxOffset ?? 0, NEAR), step: r?.policy.direction === "up" ? 1 : -1,
    unpaid_since: u.now - (r?.policy.matchWindow ?? 0), online: r?.policy.requireOnline ?? false, hb: r?.policy.heartbeatTimeout ?? 0,
    only_account: r?.onlyAccountId ?? null, busy,
  };
}

export class CreateBatches {
  private queue: Pending[] = [];
  private running = 0;
  private scheduled = false;

  /** `share`: how many batches this store sends at a time (call-share.ts). */
  constructor(private readonly db: () => Promise<SQL>, private readonly share: { current(): number }) {}

  create(u: CreateOrderUnit): Promise<CreateOrderResult> {
    // A rule that carries no data (a test's own) runs through the replayed view, as before.
    if (u.allocate && !u.allocate.request) return this.db().then((sql) => createOrderReplayed(sql, u));
    return new Promise((resolve, reject) => {
      this.queue.push({ u, busy: 0, resolve, reject });
      this.kick();
    });
  }

  private kick(): void {
    if (this.running >= this.share.current() || this.queue.length === 0 || this.scheduled) return;
    // The rest of this turn's creates join the batch: it is cut on the next turn.
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const inFlight = this.share.current();
      // What waits is shared out over the free calls (each runs on its own server backend, so two
      // halves use two cores where one whole batch would use one), at most CAP each.
      while (this.running < inFlight && this.queue.length > 0) {
        const n = Math.min(CAP, Math.ceil(this.queue.length / (inFlight - this.running)));
        this.running++;
        void this.flush(this.queue.splice(0, n)).finally(() => {
          this.running--;
          this.kick();
        });
      }
      this.kick();
    });
  }

  private async flush(batch: Pending[]): Promise<void> {
    let sql: SQL;
    let rows: Row[];
    try {
      sql = await this.db();
      const units = JSON.stringify(batch.map((p, i) => batchElement(i + 1, p.u, p.busy > 0)));
      // As text, then jsonb: a string bound to jsonb would be sent as one JSON string value.
      rows = (await retried(() => sql`SELECT * FROM xpay_create_orders(${units}::text::jsonb)`)) as Row[];
    } catch {
      batchStats.refused++;
      for (const p of batch) this.alone(p);
      return;
    }
    batchStats.batches++;
    batchStats.units += batch.length;
    const endRow = rows.find((r) => r.outcome === "end");
    const end = Number(endRow?.at_us ?? 0);
    if (endRow?.fail_reason === "careful") batchStats.careful++;
    const again: Pending[] = [];
    const answered = new Set<Pending>();
    for (const row of rows) {
      const p = batch[Number(row.i) - 1];
      if (!p || answered.has(p)) continue;
      answered.add(p);
      if (row.outcome === "busy" && p.busy < BUSY_ROUNDS) {
        batchStats.busy++;
        p.busy++;
        again.push(p);
      } else if (row.outcome === "created" || row.outcome === "existing") {
        if (row.at_us !== null) {
          lockHold.creates++;
          lockHold.micros += end - Number(row.at_us);
        }
        answer(sql, p.u, row).then(p.resolve, p.reject);
      } else this.alone(p);
    }
    // A unit the call did not answer (never seen) is not left waiting: it runs alone.
    for (const p of batch) if (!answered.has(p)) this.alone(p);
    // Busy units first: the next batch's first unit may wait for what it needs.
    this.queue.unshift(...again);
  }

  private alone(p: Pending): void {
    batchStats.alone++;
    this.db().then((sql) => createOrder(sql, p.u)).then(p.resolve, p.reject);
  }
}

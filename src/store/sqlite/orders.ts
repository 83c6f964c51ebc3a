import type { Database } from "bun:sqlite";
import type { AllocationRule, AllocationView } from "../../core/allocation.ts";
import type { CreateOrderResult, CreateOrderUnit, OrderFilter } from "../../core/store.ts";
import type { Order } from "../../core/types.ts";
import { candidateAccounts, takenTradeAmounts } from "./channels.ts";
import { toOrder } from "./rows.ts";

type Row = Record<string, unknown>;

export function getOrder(db: Database, tradeNo: string): Order | null {
  const row = db.query("SELECT * FROM orders WHERE trade_no = $t").get({ t: tradeNo }) as Row | null;
  return row ? toOrder(row) : null;
}

export function getOrderByOutTradeNo(db: Database, pid: number, outTradeNo: string): Order | null {
  const row = db.query("SELECT * FROM orders WHERE pid = $pid AND out_trade_no = $o").get({ pid, o: outTradeNo }) as Row | null;
  return row ? toOrder(row) : null;
}

export function listOrders(db: Database, f: OrderFilter): Order[] {
  const rows = db
    .query(
      `SELECT * FROM orders WHERE ($pid IS NULL OR pid = $pid) AND ($status IS NULL OR status = $status)
       ORDER BY created_at DESC, trade_no DESC LIMIT $limit OFFSET $offset`,
    )
    .all({ pid: f.pid ?? null, status: f.status ?? null, limit: f.limit ?? 50, offset: f.offset ?? 0 }) as Row[];
  return rows.map(toOrder);
}

function view(db: Database): AllocationView {
  return {
    candidateAccounts: (pid, payType, dayStart) => candidateAccounts(db, pid, payType, dayStart),
    takenTradeAmounts: (accountId, payType, since) => takenTradeAmounts(db, accountId, payType, since),
  };
}

function applyAllocation(db: Database, tradeNo: string, now: number, allocate: AllocationRule): Order {
  const a = allocate(view(db));
  if (a.ok) {
    db.query("UPDATE orders SET account_id = $acc, trade_amount = $ta, status = 1, fail_reason = '' WHERE trade_no = $t").run({ acc: a.accountId, ta: a.tradeAmount, t: tradeNo });
    db.query("UPDATE channel_accounts SET last_used_at = $now WHERE id = $id").run({ now, id: a.accountId });
  } else {
    db.query("UPDATE orders SET status = 5, fail_reason = $r, account_id = NULL, trade_amount = NULL WHERE trade_no = $t").run({ r: a.reason, t: tradeNo });
  }
  return getOrder(db, tradeNo)!;
}

function insert(db: Database, u: CreateOrderUnit): string {
  const o = u.order;
  const stmt = db.query(
    `INSERT INTO orders (trade_no, pid, out_trade_no, family, pay_type, name, amount, status, notify_url, return_url, param,
                         clientip, device, extra, created_at, expire_time)
     VALUES ($trade_no, $pid, $out, $family, $pay_type, $name, $amount, 1, $notify, $return, $param, $ip, $device, $extra, $now, $expire)
     ON CONFLICT (trade_no) DO NOTHING`,
  );
  for (;;) {
    const tradeNo = u.newTradeNo();
    const r = stmt.run({
      trade_no: tradeNo, pid: o.pid, out: o.outTradeNo, family: o.family, pay_type: o.payType, name: o.name, amount: o.amount,
      notify: o.notifyUrl, return: o.returnUrl, param: o.param, ip: o.clientip, device: o.device, extra: JSON.stringify(o.extra),
      now: u.now, expire: u.expireTime,
    });
    if (r.changes === 1) return tradeNo; // else a trade_no collision: draw again
  }
}

/** One write transaction: idempotency check, insert (or retry of a failed row), allocation. */
export function createOrder(db: Database, u: CreateOrderUnit): CreateOrderResult {
  return db.transaction((): CreateOrderResult => {
    const existing = getOrderByOutTradeNo(db, u.order.pid, u.order.outTradeNo);
    let tradeNo: string;
    if (existing) {
      const d = u.onExisting(existing);
      if (d.kind === "error") return { kind: "error", reason: d.reason };
      if (d.kind === "return") return { kind: "existing", order: existing };
      tradeNo = existing.tradeNo;
      const o = u.order;
      db.query(
        `UPDATE orders SET family = $family, pay_type = $pay_type, name = $name, amount = $amount, notify_url = $notify, return_url = $return,
           param = $param, clientip = $ip, device = $device, extra = $extra, created_at = $now, expire_time = $expire, status = 1
         WHERE trade_no = $t`,
      ).run({
        t: tradeNo, family: o.family, pay_type: o.payType, name: o.name, amount: o.amount, notify: o.notifyUrl, return: o.returnUrl, param: o.param,
        ip: o.clientip, device: o.device, extra: JSON.stringify(o.extra), now: u.now, expire: u.expireTime,
      });
    } else {
      tradeNo = insert(db, u);
    }
    const order = u.allocate ? applyAllocation(db, tradeNo, u.now, u.allocate) : getOrder(db, tradeNo)!;
    return { kind: "created", order };
  }).immediate();
}

export function chooseOrderPayType(db: Database, tradeNo: string, payType: string, now: number, allocate: AllocationRule) {
  return db.transaction((): { ok: true; order: Order } | { ok: false; reason: string } => {
    const order = getOrder(db, tradeNo);
    if (!order) return { ok: false, reason: "order not found" };
    if (order.status !== 1 || now >= order.expireTime) return { ok: false, reason: "order is no longer payable" };
    if (order.payType !== "") return { ok: false, reason: "order already has a pay type" };
    db.query("UPDATE orders SET pay_type = $p WHERE trade_no = $t").run({ p: payType, t: tradeNo });
    const a = allocate(view(db));
    if (!a.ok) {
      db.query("UPDATE orders SET pay_type = '' WHERE trade_no = $t").run({ t: tradeNo });
      return { ok: false, reason: a.reason };
    }
    db.query("UPDATE orders SET account_id = $acc, trade_amount = $ta WHERE trade_no = $t").run({ acc: a.accountId, ta: a.tradeAmount, t: tradeNo });
    db.query("UPDATE channel_accounts SET last_used_at = $now WHERE id = $id").run({ now, id: a.accountId });
    return { ok: true, order: getOrder(db, tradeNo)! };
  }).immediate();
}

export function closeOrder(db: Database, tradeNo: string, now: number): boolean {
  const r = db
    .query("UPDATE orders SET status = 3, closed_at = $now WHERE trade_no = $t AND status = 1 AND expire_time > $now")
    .run({ t: tradeNo, now });
  return r.changes === 1;
}

export function expireOrders(db: Database, now: number): number {
  return db.query("UPDATE orders SET status = 4 WHERE status = 1 AND expire_time <= $now").run({ now }).changes;
}

// The operator's changes to receiving accounts (CLI `channel add / edit / remove`). Each is one
// write transaction: the facts the rule needs (duplicate codes, the owner, the orders that used the
// account) are read in the same transaction that writes, so two operators cannot both add the
// same code, and no order can take an account between the check and its removal.
import type { Database } from "bun:sqlite";
import type { ChannelFields, RemoveChannelResult, SaveChannelResult, SaveChannelUnit } from "../../core/store.ts";
import type { ChannelAccount } from "../../core/types.ts";
import { addChannel, getChannel } from "./channels.ts";
import { toChannel } from "../rows.ts";
import { inTransaction } from "./transaction.ts";

type Row = Record<string, unknown>;

/** An add starts from these (shared with the PostgreSQL adapter, as fieldsOf). */
export const EMPTY: ChannelFields = {
  pid: 0, payType: "", code: "", name: "", qrcode: "", scheme: "", remark: "", minAmount: 0, maxAmount: 0, dayAmount: 0, sort: 0,
};

export function fieldsOf(a: ChannelAccount): ChannelFields {
  const { pid, payType, code, name, qrcode, scheme, remark, minAmount, maxAmount, dayAmount, sort } = a;
  return { pid, payType, code, name, qrcode, scheme, remark, minAmount, maxAmount, dayAmount, sort };
}

function ordersUsing(db: Database, id: number): number {
  return (db.query("SELECT COUNT(*) AS n FROM orders WHERE account_id = $id").get({ id }) as { n: number }).n;
}

export function saveChannel(db: Database, u: SaveChannelUnit): SaveChannelResult {
  return inTransaction(db, (): SaveChannelResult => {
    const current = u.id === null ? null : getChannel(db, u.id);
    if (u.id !== null && !current) return { kind: "not_found" };
    const defined = Object.fromEntries(Object.entries(u.patch).filter(([, v]) => v !== undefined));
    const next: ChannelFields = { ...(current ? fieldsOf(current) : EMPTY), ...defined };
    const sameCode = (db.query("SELECT * FROM channel_accounts WHERE pay_type = $pay_type AND code = $code AND id != $id ORDER BY id").all({
      pay_type: next.payType, code: next.code, id: u.id ?? 0,
    }) as Row[]).map(toChannel);
    const merchantExists = next.pid === 0 || db.query("SELECT 1 FROM merchants WHERE pid = $pid").get({ pid: next.pid }) !== null;
    const reason = u.check(next, { current, merchantExists, sameCode, orders: current ? ordersUsing(db, current.id) : 0 });
    if (reason !== null) return { kind: "refused", reason };
    if (!current) return { kind: "saved", account: addChannel(db, { ...next, now: u.now }) };
    const row = db
      .query(
        `UPDATE channel_accounts SET pid = $pid, pay_type = $pay_type, code = $code, name = $name, qrcode = $qrcode, scheme = $scheme,
           remark = $remark, min_amount = $min, max_amount = $max, day_amount = $day, sort = $sort
         WHERE id = $id RETURNING *`,
      )
      .get({
        id: current.id, pid: next.pid, pay_type: next.payType, code: next.code, name: next.name, qrcode: next.qrcode, scheme: next.scheme,
        remark: next.remark, min: next.minAmount, max: next.maxAmount, day: next.dayAmount, sort: next.sort,
      }) as Row;
    return { kind: "saved", account: toChannel(row) };
  });
}

/** A monitoring client bound to the account keeps reporting; it just names no account any more. */
export function removeChannel(db: Database, id: number): RemoveChannelResult {
  return inTransaction(db, (): RemoveChannelResult => {
    const account = getChannel(db, id);
    if (!account) return { kind: "not_found" };
    const orders = ordersUsing(db, id);
    if (orders > 0) return { kind: "used", orders };
    db.query("UPDATE clients SET channel_id = NULL WHERE channel_id = $id").run({ id });
    db.query("DELETE FROM channel_accounts WHERE id = $id").run({ id });
    return { kind: "removed", account };
  });
}

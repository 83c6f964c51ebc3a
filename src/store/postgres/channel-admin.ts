// The operator's changes to receiving accounts on PostgreSQL: the facts the core's account rule
// reads are read in the transaction that writes. The (pay type, code) the account would have is
// locked, so two operators on two instances cannot both add the same code; an edited or removed
// account's row is locked, so no create can take it between the check and the change.
import type { SQL } from "bun";
import type { ChannelFields, RemoveChannelResult, SaveChannelResult, SaveChannelUnit } from "../../core/store.ts";
import { EMPTY, fieldsOf } from "../sqlite/channel-admin.ts";
import { toChannel } from "../rows.ts";
import { addChannel, getChannel } from "./channels.ts";
import { lock, Lock, unit } from "./tx.ts";

type Row = Record<string, unknown>;

async function ordersUsing(tx: SQL, id: number): Promise<number> {
  const [row] = await tx`SELECT COUNT(*) AS n FROM orders WHERE account_id = ${id}`;
  return Number(row.n);
}

export function saveChannel(sql: SQL, u: SaveChannelUnit): Promise<SaveChannelResult> {
  return unit(sql, async (tx): Promise<SaveChannelResult> => {
    const current = u.id === null ? null : await getChannel(tx, u.id, { forUpdate: true });
    if (u.id !== null && !current) return { kind: "not_found" };
    const defined = Object.fromEntries(Object.entries(u.patch).filter(([, v]) => v !== undefined));
    const next: ChannelFields = { ...(current ? fieldsOf(current) : EMPTY), ...defined };
    await lock(tx, Lock.channelCode, `${next.payType}\n${next.code}`);
    const sameCode = ((await tx`SELECT * FROM channel_accounts WHERE pay_type = ${next.payType} AND code = ${next.code} AND id <> ${u.id ?? 0} ORDER BY id`) as Row[]).map(toChannel);
    const merchantExists = next.pid === 0 || (await tx`SELECT 1 FROM merchants WHERE pid = ${next.pid}`).length > 0;
    const reason = u.check(next, { current, merchantExists, sameCode, orders: current ? await ordersUsing(tx, current.id) : 0 });
    if (reason !== null) return { kind: "refused", reason };
    if (!current) return { kind: "saved", account: await addChannel(tx, { ...next, now: u.now }) };
    const [row] = await tx`
      UPDATE channel_accounts SET pid = ${next.pid}, pay_type = ${next.payType}, code = ${next.code}, name = ${next.name}, qrcode = ${next.qrcode},
        scheme = ${next.scheme}, remark = ${next.remark}, min_amount = ${next.minAmount}, max_amount = ${next.maxAmount}, day_amount = ${next.dayAmount},
        sort = ${next.sort}
      WHERE id = ${current.id} RETURNING *`;
    return { kind: "saved", account: toChannel(row) };
  });
}

/** A monitoring client bound to the account keeps reporting; it just names no account any more. */
export function removeChannel(sql: SQL, id: number): Promise<RemoveChannelResult> {
  return unit(sql, async (tx): Promise<RemoveChannelResult> => {
    const account = await getChannel(tx, id, { forUpdate: true });
    if (!account) return { kind: "not_found" };
    const orders = await ordersUsing(tx, id);
    if (orders > 0) return { kind: "used", orders };
    await tx`UPDATE clients SET channel_id = NULL WHERE channel_id = ${id}`;
    await tx`DELETE FROM channel_accounts WHERE id = ${id}`;
    return { kind: "removed", account };
  });
}

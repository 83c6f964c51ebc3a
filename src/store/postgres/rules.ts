// The RulesStore sub-port (core/rules/store.ts) on PostgreSQL, as ../sqlite/rules.ts: operator
// message rules and the bounded table of unrecognised payment-app notifications (migration 010).
// SQLite's single writer kept the table within `total`; here several instances record at once, so
// each recording takes the table's SHARE ROW EXCLUSIVE lock (it conflicts with itself, not with
// readers) before it counts: the count, the delete and the insert of one recording see every
// earlier one, and a re-send raced by two instances bumps one row instead of inserting twice.
import type { SQL } from "bun";
import type { AddRuleResult, NewUnparsed, RulesStore } from "../../core/rules/store.ts";
import { titleColumn, toRule, toUnparsed } from "../sqlite/rules.ts";
import { unit } from "./tx.ts";

type Row = Record<string, unknown>;

async function recordUnparsed(tx: SQL, m: NewUnparsed, limits: { total: number }): Promise<void> {
  await tx`LOCK TABLE unparsed_messages IN SHARE ROW EXCLUSIVE MODE`;
  const bumped = await tx`
    UPDATE unparsed_messages SET count = count + 1, last_seen = GREATEST(last_seen, ${m.now}) WHERE pid = ${m.pid} AND key = ${m.key}`;
  if (bumped.count > 0) return;
  // The oldest seen go first (the last_seen index): a flood replaces old rows, never grows the table.
  const [{ n }] = await tx`SELECT count(*) AS n FROM unparsed_messages`;
  const rows = Number(n);
  if (rows >= limits.total) {
    await tx`DELETE FROM unparsed_messages WHERE id IN (SELECT id FROM unparsed_messages ORDER BY last_seen, id LIMIT ${rows - limits.total + 1})`;
  }
  await tx`
    INSERT INTO unparsed_messages (pid, key, package, title, text, reason, count, first_seen, last_seen)
    VALUES (${m.pid}, ${m.key}, ${m.pkg}, ${m.title}, ${m.text}, ${m.reason}, 1, ${m.now}, ${m.now})`;
}

export function postgresRules(db: () => Promise<SQL>): RulesStore {
  return {
    listRules: async () => ((await (await db())`SELECT * FROM message_rules ORDER BY id`) as Row[]).map(toRule),

    addRule: async (r): Promise<AddRuleResult> => {
      const rows = await (await db())`
        INSERT INTO message_rules (name, package, title, text, pay_type, created_at) VALUES (${r.name}, ${r.pkg}, ${titleColumn(r.titles)}, ${r.text}, ${r.payType}, ${r.createdAt})
        ON CONFLICT (name) DO NOTHING RETURNING *`;
      return rows.length
        ? { kind: "added", rule: toRule(rows[0]) }
        : { kind: "refused", reason: `a rule named ${r.name} exists already; choose another --name or remove it first` };
    },

    removeRule: async (name) => (await (await db())`DELETE FROM message_rules WHERE name = ${name}`).count === 1,

    recordUnparsed: async (m, limits) => unit(await db(), (tx) => recordUnparsed(tx, m, limits)),

    forgetUnparsed: async (pid, key) => {
      await (await db())`DELETE FROM unparsed_messages WHERE pid = ${pid} AND key = ${key}`;
    },

    listUnparsed: async (f) => {
      const pid = f.pid ?? null;
      const rows = await (await db())`
        SELECT * FROM unparsed_messages WHERE (${pid}::bigint IS NULL OR pid = ${pid}::bigint) AND last_seen >= ${f.since ?? 0}
        ORDER BY last_seen DESC, id DESC LIMIT ${f.limit ?? 100}`;
      return (rows as Row[]).map(toUnparsed);
    },
  };
}

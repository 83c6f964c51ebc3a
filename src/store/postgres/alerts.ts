// Store.alerts on PostgreSQL (core/alerts/store.ts): channels, instances, one pass's writes in one
// transaction, and the pruning of old history; the facts are in alert-facts.ts, the outbox in
// alert-outbox.ts. Several instances run the alert loop on one database.
//
// One pass fires an alert once, whichever instances evaluate at the same time. A pass reads
// (facts, events, instances) in several calls and writes in one (applyPass), so two instances
// that read the same state would both fire. The writes are therefore conditional on the whole pass:
// a generation (the alert_cursors row `pass`) counts applied passes; this adapter notes the
// generation with its pass's first read, and applyPass, under a transaction-scoped advisory lock
// (Lock.alertPass) that serializes every instance's applyPass, writes only when the generation is
// still the one it read, and moves it on. A pass another instance applied meanwhile leaves this
// pass's writes out (instances, outbox rows and cursors alike): they were decided on what has
// changed since, and the next pass, a few seconds later, reads afresh. The alert loop runs one pass
// at a time per process (server/alert-loop.ts), which is what "its first read" assumes. An advisory
// lock around the whole pass was the other way; it would hold a pooled connection across the
// core's code between the reads, and a crash between the reads and the write would need a session
// lock to be cleaned up by the server.
import type { SQL } from "bun";
import type { AlertStore } from "../../core/alerts/store.ts";
import { toChannel, toInstance } from "../sqlite/alerts.ts";
import { readEvents, readFacts } from "./alert-facts.ts";
import { claimDue, history, insertLeased, recordAttempt } from "./alert-outbox.ts";
import { lock, Lock, unit } from "./tx.ts";

type Row = Record<string, unknown>;

const GENERATION = "pass";

async function generation(tx: SQL): Promise<number> {
  const rows = (await tx`SELECT value FROM alert_cursors WHERE name = ${GENERATION}`) as Row[];
  return rows.length ? Number(rows[0]!.value) : 0;
}

export function postgresAlerts(db: () => Promise<SQL>): AlertStore {
  /** The generation the current pass read first; null: no read since the last applyPass. */
  let readAt: number | null = null;
  const note = async (tx: SQL) => {
    if (readAt === null) readAt = await generation(tx);
  };

  return {
    async addChannel(c) {
      const rows = (await (await db())`
        INSERT INTO alert_channels (name, type, config, created_at) VALUES (${c.name}, ${c.type}, ${JSON.stringify(c.config)}, ${c.now})
        ON CONFLICT (name) DO NOTHING RETURNING *`) as Row[];
      return rows.length ? { kind: "added", channel: toChannel(rows[0]!) } : { kind: "refused", reason: `an alert channel named ${c.name} exists already` };
    },
    listChannels: async () => ((await (await db())`SELECT * FROM alert_channels ORDER BY id`) as Row[]).map(toChannel),
    async getChannel(name) {
      const rows = (await (await db())`SELECT * FROM alert_channels WHERE name = ${name}`) as Row[];
      return rows.length ? toChannel(rows[0]!) : null;
    },
    removeChannel: async (name, nowMs) =>
      unit(await db(), async (tx) => {
        const rows = (await tx`DELETE FROM alert_channels WHERE name = ${name} RETURNING id`) as Row[];
        if (!rows.length) return false;
        // What was queued for it can never go out now; history keeps it, marked.
        await tx`UPDATE alert_messages SET status = 'failed', next_attempt_at = ${nowMs} WHERE channel_id = ${Number(rows[0]!.id)} AND status = 'pending'`;
        return true;
      }),

    readFacts: async (q) => readFacts(await db(), q, note),
    readEvents: async (limit) => readEvents(await db(), limit, note),
    async activeInstances() {
      const sql = await db();
      await note(sql);
      return ((await sql`SELECT * FROM alert_instances WHERE state = 'firing' ORDER BY opened_at, key`) as Row[]).map(toInstance);
    },
    async getInstances(keys) {
      const sql = await db();
      await note(sql);
      if (keys.length === 0) return [];
      return ((await sql`SELECT * FROM alert_instances WHERE key = ANY(${keys}::text[])`) as Row[]).map(toInstance);
    },

    async applyPass(u) {
      const read = readAt;
      readAt = null;
      await unit(await db(), async (tx) => {
        await lock(tx, Lock.alertPass);
        const now = await generation(tx);
        // null: a caller that read nothing through this store cannot have read stale state.
        if (read !== null && read !== now) return;
        for (const i of u.instances) {
          await tx`
            INSERT INTO alert_instances (key, condition, state, notified, opened_at, resolved_at, last_sent_at, flaps, finding)
            VALUES (${i.key}, ${i.condition}, ${i.state}, ${i.notified ? 1 : 0}, ${i.openedAt}, ${i.resolvedAt}, ${i.lastSentAt}, ${i.flaps}, ${JSON.stringify(i.finding)})
            ON CONFLICT (key) DO UPDATE SET condition = excluded.condition, state = excluded.state, notified = excluded.notified, opened_at = excluded.opened_at,
              resolved_at = excluded.resolved_at, last_sent_at = excluded.last_sent_at, flaps = excluded.flaps, finding = excluded.finding`;
        }
        for (const { message: m, channels } of u.messages) {
          for (const c of channels) {
            await tx`
              INSERT INTO alert_messages (channel_id, channel_name, channel_type, event, alert_key, title, message, next_attempt_at, created_at)
              VALUES (${c.id}, ${c.name}, ${c.type}, ${m.event}, ${m.key}, ${m.title}, ${JSON.stringify(m)}, ${u.nowMs}, ${u.nowMs})`;
          }
        }
        const cursors: [string, number][] = [...(u.cursors ? Object.entries(u.cursors) : []), [GENERATION, now + 1]];
        for (const [name, value] of cursors) {
          await tx`INSERT INTO alert_cursors (name, value) VALUES (${name}, ${value}) ON CONFLICT (name) DO UPDATE SET value = excluded.value`;
        }
      });
    },

    insertLeased: async (c, m, now, lease) => insertLeased(await db(), c, m, now, lease),
    claimDue: async (now, limit, lease, fair) => claimDue(await db(), now, limit, lease, fair),
    recordAttempt: async (id, o) => recordAttempt(await db(), id, o),
    history: async (f) => history(await db(), f.limit),

    prune: async (beforeMs) =>
      unit(await db(), async (tx) => {
        const messages = await tx`DELETE FROM alert_messages WHERE status IN ('sent', 'failed') AND created_at < ${beforeMs}`;
        const instances = await tx`DELETE FROM alert_instances WHERE state IN ('resolved', 'event') AND COALESCE(resolved_at, opened_at) < ${Math.floor(beforeMs / 1000)}`;
        return Number(messages.count) + Number(instances.count);
      }),
  };
}

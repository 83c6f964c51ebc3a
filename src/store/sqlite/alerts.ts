// The alerts' sub-port on bun:sqlite (core/alerts/store.ts): channels, instances, one pass's
// writes in one transaction, and the pruning of old history. The facts and the outbox are in
// alert-facts.ts and alert-outbox.ts. Two servers on one file fire an alert once: applyPass writes
// only when no other pass was applied since this pass's first read (the pass generation, as in
// ../postgres/alerts.ts, which says why); the immediate transaction serializes the checks.
import type { Database } from "bun:sqlite";
import type { AlertChannel, AlertStore, ChannelType } from "../../core/alerts/store.ts";
import type { AlertInstance } from "../../core/alerts/types.ts";
import { readEvents } from "./alert-facts.ts";
import type { FactsReader } from "./facts-reader.ts";
import { claimDue, history, insertLeased, recordAttempt } from "./alert-outbox.ts";

type Row = Record<string, unknown>;

/** Rows to the port's types; the PostgreSQL adapter reads its identical columns with these. */
export function toChannel(r: Row): AlertChannel {
  return { id: Number(r.id), name: String(r.name), type: String(r.type) as ChannelType, config: JSON.parse(String(r.config)), enabled: Number(r.enabled) === 1, createdAt: Number(r.created_at) };
}

export function toInstance(r: Row): AlertInstance {
  return {
    key: String(r.key), condition: String(r.condition) as AlertInstance["condition"], state: String(r.state) as AlertInstance["state"], notified: Number(r.notified) === 1,
    openedAt: Number(r.opened_at), resolvedAt: r.resolved_at === null ? null : Number(r.resolved_at), lastSentAt: r.last_sent_at === null ? null : Number(r.last_sent_at),
    flaps: Number(r.flaps), finding: JSON.parse(String(r.finding)),
  };
}

function getInstances(db: Database, keys: string[]): AlertInstance[] {
  const out: AlertInstance[] = [];
  const q = db.query("SELECT * FROM alert_instances WHERE key IN (SELECT value FROM json_each($keys))");
  for (let i = 0; i < keys.length; i += 500) out.push(...(q.all({ keys: JSON.stringify(keys.slice(i, i + 500)) }) as Row[]).map(toInstance));
  return out;
}

const GENERATION = "pass";
const generation = (db: Database) => Number((db.query("SELECT value FROM alert_cursors WHERE name = $name").get({ name: GENERATION }) as Row | null)?.value ?? 0);

/** `facts` reads the conditions' facts (facts-reader.ts: off the event loop on a database file). */
export function sqliteAlerts(db: Database, facts: FactsReader): AlertStore {
  /** The generation the current pass read first; null: no read since the last applyPass. */
  let readAt: number | null = null;
  const note = () => {
    if (readAt === null) readAt = generation(db);
  };

  return {
    async addChannel(c) {
      if (db.query("SELECT 1 FROM alert_channels WHERE name = $name").get({ name: c.name })) return { kind: "refused", reason: `an alert channel named ${c.name} exists already` };
      const row = db
        .query("INSERT INTO alert_channels (name, type, config, created_at) VALUES ($name, $type, $config, $now) RETURNING *")
        .get({ name: c.name, type: c.type, config: JSON.stringify(c.config), now: c.now }) as Row;
      return { kind: "added", channel: toChannel(row) };
    },
    listChannels: async () => (db.query("SELECT * FROM alert_channels ORDER BY id").all() as Row[]).map(toChannel),
    async getChannel(name) {
      const row = db.query("SELECT * FROM alert_channels WHERE name = $name").get({ name }) as Row | null;
      return row ? toChannel(row) : null;
    },
    async removeChannel(name, nowMs) {
      return db.transaction(() => {
        const row = db.query("DELETE FROM alert_channels WHERE name = $name RETURNING id").get({ name }) as Row | null;
        if (!row) return false;
        // What was queued for it can never go out now; history keeps it, marked.
        db.query("UPDATE alert_messages SET status = 'failed', next_attempt_at = $now WHERE channel_id = $id AND status = 'pending'").run({ id: Number(row.id), now: nowMs });
        return true;
      }).immediate();
    },

    readFacts: (q) => (note(), facts.read(q)),
    readEvents: async (limit) => (note(), readEvents(db, limit)),
    activeInstances: async () => (note(), (db.query("SELECT * FROM alert_instances WHERE state = 'firing' ORDER BY opened_at, key").all() as Row[]).map(toInstance)),
    getInstances: async (keys) => (note(), getInstances(db, keys)),

    async applyPass(u) {
      const upsert = db.query(
        `INSERT INTO alert_instances (key, condition, state, notified, opened_at, resolved_at, last_sent_at, flaps, finding)
         VALUES ($key, $condition, $state, $notified, $opened, $resolved, $sent, $flaps, $finding)
         ON CONFLICT (key) DO UPDATE SET condition = excluded.condition, state = excluded.state, notified = excluded.notified, opened_at = excluded.opened_at,
           resolved_at = excluded.resolved_at, last_sent_at = excluded.last_sent_at, flaps = excluded.flaps, finding = excluded.finding`,
      );
      const enqueue = db.query(
        `INSERT INTO alert_messages (channel_id, channel_name, channel_type, event, alert_key, title, message, next_attempt_at, created_at)
         VALUES ($channel, $name, $type, $event, $key, $title, $message, $now, $now)`,
      );
      const cursor = db.query("INSERT INTO alert_cursors (name, value) VALUES ($name, $value) ON CONFLICT (name) DO UPDATE SET value = excluded.value");
      const read = readAt;
      readAt = null;
      db.transaction(() => {
        const now = generation(db);
        if (read !== null && read !== now) return; // another server applied a pass since this one read
        for (const i of u.instances) {
          upsert.run({ key: i.key, condition: i.condition, state: i.state, notified: i.notified ? 1 : 0, opened: i.openedAt, resolved: i.resolvedAt, sent: i.lastSentAt, flaps: i.flaps, finding: JSON.stringify(i.finding) });
        }
        for (const { message: m, channels } of u.messages) {
          for (const c of channels) enqueue.run({ channel: c.id, name: c.name, type: c.type, event: m.event, key: m.key, title: m.title, message: JSON.stringify(m), now: u.nowMs });
        }
        if (u.cursors) for (const [name, value] of Object.entries(u.cursors)) cursor.run({ name, value });
        cursor.run({ name: GENERATION, value: now + 1 });
      }).immediate();
    },

    insertLeased: async (c, m, now, lease) => insertLeased(db, c, m, now, lease),
    claimDue: async (now, limit, lease, fair) => claimDue(db, now, limit, lease, fair),
    recordAttempt: async (id, o) => recordAttempt(db, id, o),
    history: async (f) => history(db, f.limit),

    async prune(beforeMs) {
      return db.transaction(() => {
        const messages = db.query("DELETE FROM alert_messages WHERE status IN ('sent', 'failed') AND created_at < $cut").run({ cut: beforeMs }).changes;
        const instances = db.query("DELETE FROM alert_instances WHERE state IN ('resolved', 'event') AND COALESCE(resolved_at, opened_at) < $cut").run({ cut: Math.floor(beforeMs / 1000) }).changes;
        return messages + instances;
      }).immediate();
    },
  };
}

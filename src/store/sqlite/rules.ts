// SQLite side of the RulesStore sub-port (src/core/rules/store.ts): operator message rules and the
// bounded table of unrecognised payment-app notifications (migration 010; titles as names and the
// disabled reason: migration 018).
import type { Database } from "bun:sqlite";
import type { AddRuleResult, NewUnparsed, RulesStore, StoredRule, UnparsedMessage } from "../../core/rules/store.ts";

type Row = Record<string, unknown>;

/** Row mappers, shared with the PostgreSQL adapter (the schemas match column for column). */
export const toRule = (r: Row): StoredRule => ({
  id: Number(r.id), name: String(r.name), pkg: String(r.package), titles: String(r.title).split("\n"), text: String(r.text),
  payType: String(r.pay_type), createdAt: Number(r.created_at), disabled: String(r.disabled ?? ""),
});

/** The title column holds the names one a line (the core refuses a name with a line break). */
export const titleColumn = (titles: string[]) => titles.join("\n");

export const toUnparsed = (r: Row): UnparsedMessage => ({
  id: Number(r.id), pid: Number(r.pid), pkg: String(r.package), title: String(r.title), text: String(r.text), reason: String(r.reason),
  count: Number(r.count), firstSeen: Number(r.first_seen), lastSeen: Number(r.last_seen),
});

export class SqliteRules implements RulesStore {
  constructor(private readonly db: Database) {}

  async listRules(): Promise<StoredRule[]> {
    return (this.db.query("SELECT * FROM message_rules ORDER BY id").all() as Row[]).map(toRule);
  }

  async addRule(r: Omit<StoredRule, "id" | "disabled">): Promise<AddRuleResult> {
    const row = this.db
      .query(
        `INSERT INTO message_rules (name, package, title, text, pay_type, created_at) VALUES ($name, $pkg, $title, $text, $pay, $at)
         ON CONFLICT (name) DO NOTHING RETURNING *`,
      )
      .get({ name: r.name, pkg: r.pkg, title: titleColumn(r.titles), text: r.text, pay: r.payType, at: r.createdAt }) as Row | null;
    return row ? { kind: "added", rule: toRule(row) } : { kind: "refused", reason: `a rule named ${r.name} exists already; choose another --name or remove it first` };
  }

  async removeRule(name: string): Promise<boolean> {
    return this.db.query("DELETE FROM message_rules WHERE name = $name").run({ name }).changes === 1;
  }

  async recordUnparsed(m: NewUnparsed, limits: { total: number }): Promise<void> {
    this.db.transaction(() => {
      const bumped = this.db
        .query("UPDATE unparsed_messages SET count = count + 1, last_seen = MAX(last_seen, $now) WHERE pid = $pid AND key = $key")
        .run({ pid: m.pid, key: m.key, now: m.now }).changes;
      if (bumped > 0) return;
      // The oldest seen go first (the last_seen index): a flood replaces old rows, never grows the table.
      const n = (this.db.query("SELECT count(*) AS n FROM unparsed_messages").get() as { n: number }).n;
      if (n >= limits.total) {
        this.db
          .query("DELETE FROM unparsed_messages WHERE id IN (SELECT id FROM unparsed_messages ORDER BY last_seen, id LIMIT $n)")
          .run({ n: n - limits.total + 1 });
      }
      this.db
        .query(
          `INSERT INTO unparsed_messages (pid, key, package, title, text, reason, count, first_seen, last_seen)
           VALUES ($pid, $key, $pkg, $title, $text, $reason, 1, $now, $now)`,
        )
        .run({ pid: m.pid, key: m.key, pkg: m.pkg, title: m.title, text: m.text, reason: m.reason, now: m.now });
    }).immediate();
  }

  async forgetUnparsed(pid: number, key: string): Promise<void> {
    this.db.query("DELETE FROM unparsed_messages WHERE pid = $pid AND key = $key").run({ pid, key });
  }

  async listUnparsed(f: { pid?: number; since?: number; limit?: number }): Promise<UnparsedMessage[]> {
    // At most UNPARSED_LIMITS.total (500) rows exist: the last_seen index serves the order and `since`.
    const rows = this.db
      .query("SELECT * FROM unparsed_messages WHERE ($pid IS NULL OR pid = $pid) AND last_seen >= $since ORDER BY last_seen DESC, id DESC LIMIT $limit")
      .all({ pid: f.pid ?? null, since: f.since ?? 0, limit: f.limit ?? 100 }) as Row[];
    return rows.map(toUnparsed);
  }
}

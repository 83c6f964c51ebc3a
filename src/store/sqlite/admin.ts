// Store.admin on bun:sqlite: operators, sessions and setup tokens (the audit log is in
// admin-audit.ts). Plain SQL a PostgreSQL adapter can repeat; every multi-statement unit is one
// transaction.
import type { Database } from "bun:sqlite";
import type { AdminStore, LiveWindow, Operator, OperatorSession, OperatorWithHash, SetupResult } from "../../core/admin/store.ts";
import { appendAudit, listAudit } from "./admin-audit.ts";
import { countLogin, listLoginFailures, loginWindows, pruneLoginFailures } from "./admin-logins.ts";
import { inTransaction } from "./transaction.ts";

type Row = Record<string, unknown>;

/** Row mappers, shared with the PostgreSQL adapter (the schemas match column for column). */
export function toOperator(r: Row): OperatorWithHash {
  return {
    id: Number(r.id),
    name: String(r.name),
    passwordHash: String(r.password_hash),
    createdAt: Number(r.created_at),
    passwordChangedAt: Number(r.password_changed_at),
    lastLoginAt: Number(r.last_login_at),
  };
}

/** The operator without its hash: what leaves the store for listing. */
export function publicOperator(o: OperatorWithHash): Operator {
  const { passwordHash: _, ...rest } = o;
  return rest;
}

export function toSession(r: Row): OperatorSession {
  return {
    id: Number(r.id),
    operatorId: Number(r.operator_id),
    operatorName: String(r.operator_name),
    createdAt: Number(r.created_at),
    lastUsedAt: Number(r.last_used_at),
    ip: String(r.ip),
    lastIp: String(r.last_ip),
    userAgent: String(r.user_agent),
  };
}

const SESSION_SELECT = "SELECT s.*, o.name AS operator_name FROM operator_sessions s JOIN operators o ON o.id = s.operator_id";

export class SqliteAdminStore implements AdminStore {
  constructor(private readonly db: Database) {}

  countOperators: AdminStore["countOperators"] = async () => (this.db.query("SELECT count(*) AS n FROM operators").get() as { n: number }).n;

  addOperator: AdminStore["addOperator"] = async (o) => {
    const row = this.db
      .query(
        `INSERT INTO operators (name, password_hash, created_at, password_changed_at) VALUES ($name, $hash, $now, $now)
         ON CONFLICT (name) DO NOTHING RETURNING *`,
      )
      .get({ name: o.name, hash: o.passwordHash, now: o.now }) as Row | null;
    return row ? publicOperator(toOperator(row)) : null;
  };

  findOperator: AdminStore["findOperator"] = async (name) => {
    const row = this.db.query("SELECT * FROM operators WHERE name = $name").get({ name }) as Row | null;
    return row ? toOperator(row) : null;
  };

  listOperators: AdminStore["listOperators"] = async () => (this.db.query("SELECT * FROM operators ORDER BY id").all() as Row[]).map((r) => publicOperator(toOperator(r)));

  setPassword: AdminStore["setPassword"] = async (operatorId, hash, now, keep) =>
    inTransaction(this.db, () => {
      this.db.query("UPDATE operators SET password_hash = $hash, password_changed_at = $now WHERE id = $id").run({ id: operatorId, hash, now });
      return this.db.query("DELETE FROM operator_sessions WHERE operator_id = $id AND id != $keep").run({ id: operatorId, keep: keep ?? 0 }).changes;
    });

  removeOperator: AdminStore["removeOperator"] = async (id) => this.db.query("DELETE FROM operators WHERE id = $id").run({ id }).changes === 1;

  createSession: AdminStore["createSession"] = async (s) => inTransaction(this.db, () => this.insertSession(s.operatorId, s.tokenHash, s.now, s.ip, s.userAgent));

  private insertSession(operatorId: number, tokenHash: string, now: number, ip: string, userAgent: string): OperatorSession {
    const { id } = this.db
      .query(
        `INSERT INTO operator_sessions (token_hash, operator_id, created_at, last_used_at, ip, last_ip, user_agent)
         VALUES ($hash, $op, $now, $now, $ip, $ip, $ua) RETURNING id`,
      )
      .get({ hash: tokenHash, op: operatorId, now, ip, ua: userAgent }) as { id: number };
    this.db.query("UPDATE operators SET last_login_at = $now WHERE id = $op").run({ op: operatorId, now });
    return toSession(this.db.query(`${SESSION_SELECT} WHERE s.id = $id`).get({ id }) as Row);
  }

  findSession: AdminStore["findSession"] = async (tokenHash) => {
    const row = this.db.query(`${SESSION_SELECT} WHERE s.token_hash = $hash`).get({ hash: tokenHash }) as Row | null;
    return row ? toSession(row) : null;
  };

  touchSession: AdminStore["touchSession"] = async (id, now, ip) => {
    this.db.query("UPDATE operator_sessions SET last_used_at = MAX(last_used_at, $now), last_ip = $ip WHERE id = $id").run({ id, now, ip });
  };

  listSessions: AdminStore["listSessions"] = async ({ operatorId, live }) => {
    const rows = this.db
      .query(
        `${SESSION_SELECT} WHERE s.last_used_at > $used AND s.created_at > $created AND ($op IS NULL OR s.operator_id = $op)
         ORDER BY s.last_used_at DESC, s.id DESC`,
      )
      .all({ used: live.lastUsedAfter, created: live.createdAfter, op: operatorId ?? null }) as Row[];
    return rows.map(toSession);
  };

  deleteSession: AdminStore["deleteSession"] = async (id, operatorId) =>
    this.db.query("DELETE FROM operator_sessions WHERE id = $id AND ($op IS NULL OR operator_id = $op)").run({ id, op: operatorId ?? null }).changes === 1;

  deleteSessions: AdminStore["deleteSessions"] = async (operatorId, exceptId) =>
    this.db.query("DELETE FROM operator_sessions WHERE operator_id = $op AND id != $keep").run({ op: operatorId, keep: exceptId ?? 0 }).changes;

  pruneSessions: AdminStore["pruneSessions"] = async (live: LiveWindow) =>
    this.db.query("DELETE FROM operator_sessions WHERE last_used_at <= $used OR created_at <= $created").run({ used: live.lastUsedAfter, created: live.createdAfter }).changes;

  addSetupToken: AdminStore["addSetupToken"] = async (hash, now, expiresAt) =>
    inTransaction(this.db, () => {
      this.db.query("DELETE FROM console_setup_tokens").run();
      this.db.query("INSERT INTO console_setup_tokens (token_hash, created_at, expires_at) VALUES ($hash, $now, $exp)").run({ hash, now, exp: expiresAt });
    });

  setupTokenValid: AdminStore["setupTokenValid"] = async (hash, now) =>
    this.db.query("SELECT 1 FROM console_setup_tokens WHERE token_hash = $hash AND expires_at > $now").get({ hash, now }) !== null;

  completeSetup: AdminStore["completeSetup"] = async (u) =>
    inTransaction(this.db, (): SetupResult => {
      if (this.db.query("SELECT 1 FROM operators LIMIT 1").get()) return { kind: "operator_exists" };
      if (!this.db.query("SELECT 1 FROM console_setup_tokens WHERE token_hash = $hash AND expires_at > $now").get({ hash: u.tokenHash, now: u.now })) {
        return { kind: "bad_token" };
      }
      this.db.query("DELETE FROM console_setup_tokens").run();
      const row = this.db
        .query("INSERT INTO operators (name, password_hash, created_at, password_changed_at) VALUES ($name, $hash, $now, $now) RETURNING *")
        .get({ name: u.name, hash: u.passwordHash, now: u.now }) as Row;
      const operator = publicOperator(toOperator(row));
      const session = this.insertSession(operator.id, u.session.tokenHash, u.now, u.session.ip, u.session.userAgent);
      return { kind: "done", operator: { ...operator, lastLoginAt: u.now }, session };
    });

  countLogin: AdminStore["countLogin"] = async (key, add, at) => countLogin(this.db, key, add, at);
  loginWindows: AdminStore["loginWindows"] = async (q) => loginWindows(this.db, q);
  listLoginFailures: AdminStore["listLoginFailures"] = async (q) => listLoginFailures(this.db, q);
  pruneLoginFailures: AdminStore["pruneLoginFailures"] = async (before, batch) => pruneLoginFailures(this.db, before, batch);

  appendAudit: AdminStore["appendAudit"] = async (e) => appendAudit(this.db, e);
  listAudit: AdminStore["listAudit"] = async (f) => listAudit(this.db, f);
}

// Store.admin on PostgreSQL: operators, sessions and setup tokens (the audit log is in
// admin-audit.ts), the same units as ../sqlite/admin.ts. Names are compared lower() to lower()
// (migration 008's unique index) where SQLite's column is COLLATE NOCASE. The first-run unit locks
// the operators table so two instances given the same setup link cannot both create an operator.
import type { SQL } from "bun";
import type { AdminStore, OperatorSession, SetupResult } from "../../core/admin/store.ts";
import { publicOperator, toOperator, toSession } from "../sqlite/admin.ts";
import { appendAudit, listAudit } from "./admin-audit.ts";
import { countLogin, listLoginFailures, loginWindows, pruneLoginFailures } from "./admin-logins.ts";
import { unit } from "./tx.ts";

type Row = Record<string, unknown>;

async function sessionById(tx: SQL, id: number): Promise<OperatorSession> {
  const [row] = await tx`SELECT s.*, o.name AS operator_name FROM operator_sessions s JOIN operators o ON o.id = s.operator_id WHERE s.id = ${id}`;
  return toSession(row);
}

async function insertSession(tx: SQL, operatorId: number, tokenHash: string, now: number, ip: string, userAgent: string): Promise<OperatorSession> {
  const [{ id }] = await tx`
    INSERT INTO operator_sessions (token_hash, operator_id, created_at, last_used_at, ip, last_ip, user_agent)
    VALUES (${tokenHash}, ${operatorId}, ${now}, ${now}, ${ip}, ${ip}, ${userAgent}) RETURNING id`;
  await tx`UPDATE operators SET last_login_at = ${now} WHERE id = ${operatorId}`;
  return sessionById(tx, Number(id));
}

/** `db` waits for the pool's schema check, as every unit of the store does. */
export class PostgresAdminStore implements AdminStore {
  constructor(private readonly db: () => Promise<SQL>) {}

  countOperators: AdminStore["countOperators"] = async () => Number((await (await this.db())`SELECT count(*) AS n FROM operators`)[0].n);

  addOperator: AdminStore["addOperator"] = async (o) => {
    const rows = await (await this.db())`
      INSERT INTO operators (name, password_hash, created_at, password_changed_at) VALUES (${o.name}, ${o.passwordHash}, ${o.now}, ${o.now})
      ON CONFLICT ((lower(name))) DO NOTHING RETURNING *`;
    return rows.length ? publicOperator(toOperator(rows[0])) : null;
  };

  findOperator: AdminStore["findOperator"] = async (name) => {
    const rows = await (await this.db())`SELECT * FROM operators WHERE lower(name) = lower(${name})`;
    return rows.length ? toOperator(rows[0]) : null;
  };

  listOperators: AdminStore["listOperators"] = async () => (await (await this.db())`SELECT * FROM operators ORDER BY id`).map((r: Row) => publicOperator(toOperator(r)));

  setPassword: AdminStore["setPassword"] = async (operatorId, hash, now, keep) =>
    unit(await this.db(), async (tx) => {
      await tx`UPDATE operators SET password_hash = ${hash}, password_changed_at = ${now} WHERE id = ${operatorId}`;
      return (await tx`DELETE FROM operator_sessions WHERE operator_id = ${operatorId} AND id <> ${keep ?? 0}`).count as number;
    });

  removeOperator: AdminStore["removeOperator"] = async (id) => (await (await this.db())`DELETE FROM operators WHERE id = ${id}`).count === 1;

  createSession: AdminStore["createSession"] = async (s) => unit(await this.db(), (tx) => insertSession(tx, s.operatorId, s.tokenHash, s.now, s.ip, s.userAgent));

  findSession: AdminStore["findSession"] = async (tokenHash) => {
    const rows = await (await this.db())`SELECT s.*, o.name AS operator_name FROM operator_sessions s JOIN operators o ON o.id = s.operator_id WHERE s.token_hash = ${tokenHash}`;
    return rows.length ? toSession(rows[0]) : null;
  };

  touchSession: AdminStore["touchSession"] = async (id, now, ip) => {
    await (await this.db())`UPDATE operator_sessions SET last_used_at = GREATEST(last_used_at, ${now}::bigint), last_ip = ${ip} WHERE id = ${id}`;
  };

  listSessions: AdminStore["listSessions"] = async ({ operatorId, live }) => {
    const rows = await (await this.db())`
      SELECT s.*, o.name AS operator_name FROM operator_sessions s JOIN operators o ON o.id = s.operator_id
      WHERE s.last_used_at > ${live.lastUsedAfter} AND s.created_at > ${live.createdAfter} AND (${operatorId ?? null}::bigint IS NULL OR s.operator_id = ${operatorId ?? null}::bigint)
      ORDER BY s.last_used_at DESC, s.id DESC`;
    return rows.map(toSession);
  };

  deleteSession: AdminStore["deleteSession"] = async (id, operatorId) =>
    (await (await this.db())`DELETE FROM operator_sessions WHERE id = ${id} AND (${operatorId ?? null}::bigint IS NULL OR operator_id = ${operatorId ?? null}::bigint)`).count === 1;

  deleteSessions: AdminStore["deleteSessions"] = async (operatorId, exceptId) =>
    (await (await this.db())`DELETE FROM operator_sessions WHERE operator_id = ${operatorId} AND id <> ${exceptId ?? 0}`).count as number;

  pruneSessions: AdminStore["pruneSessions"] = async (live) =>
    (await (await this.db())`DELETE FROM operator_sessions WHERE last_used_at <= ${live.lastUsedAfter} OR created_at <= ${live.createdAfter}`).count as number;

  addSetupToken: AdminStore["addSetupToken"] = async (hash, now, expiresAt) =>
    unit(await this.db(), async (tx) => {
      await tx`LOCK TABLE console_setup_tokens IN EXCLUSIVE MODE`; // two instances starting: one token stays
      await tx`DELETE FROM console_setup_tokens`;
      await tx`INSERT INTO console_setup_tokens (token_hash, created_at, expires_at) VALUES (${hash}, ${now}, ${expiresAt})`;
    });

  setupTokenValid: AdminStore["setupTokenValid"] = async (hash, now) =>
    (await (await this.db())`SELECT 1 FROM console_setup_tokens WHERE token_hash = ${hash} AND expires_at > ${now}`).length > 0;

  completeSetup: AdminStore["completeSetup"] = async (u) =>
    unit(await this.db(), async (tx): Promise<SetupResult> => {
      // Writers of operators wait until this unit commits: "no operator exists" stays true until then.
      await tx`LOCK TABLE operators IN SHARE ROW EXCLUSIVE MODE`;
      if ((await tx`SELECT 1 FROM operators LIMIT 1`).length) return { kind: "operator_exists" };
      if (!(await tx`SELECT 1 FROM console_setup_tokens WHERE token_hash = ${u.tokenHash} AND expires_at > ${u.now}`).length) return { kind: "bad_token" };
      await tx`DELETE FROM console_setup_tokens`;
      const [row] = await tx`
        INSERT INTO operators (name, password_hash, created_at, password_changed_at) VALUES (${u.name}, ${u.passwordHash}, ${u.now}, ${u.now}) RETURNING *`;
      const operator = publicOperator(toOperator(row));
      const session = await insertSession(tx, operator.id, u.session.tokenHash, u.now, u.session.ip, u.session.userAgent);
      return { kind: "done", operator: { ...operator, lastLoginAt: u.now }, session };
    });

  countLogin: AdminStore["countLogin"] = async (key, add, at) => countLogin(await this.db(), key, add, at);
  loginWindows: AdminStore["loginWindows"] = async (q) => loginWindows(await this.db(), q);
  listLoginFailures: AdminStore["listLoginFailures"] = async (q) => listLoginFailures(await this.db(), q);
  pruneLoginFailures: AdminStore["pruneLoginFailures"] = async (before, batch) => pruneLoginFailures(await this.db(), before, batch);

  appendAudit: AdminStore["appendAudit"] = async (e) => appendAudit(await this.db(), e);
  listAudit: AdminStore["listAudit"] = async (f) => listAudit(await this.db(), f);
}

// Store.admin on SQLite: names unique whatever their case, a session row holds only its token's
// hash, removing an operator ends its sessions, the first-run unit works once and only while no
// operator exists, and the audit log pages by id in both directions with its filters.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { redact, secretKey } from "../../src/core/admin/audit.ts";
import { hashToken, liveWindow, newToken } from "../../src/core/admin/sessions.ts";
import { type Harness, harness } from "../helpers.ts";

let h: Harness;
beforeEach(() => (h = harness()));
afterEach(() => h.close());
const admin = () => h.gw.store.admin;
const everything = { lastUsedAfter: -1, createdAfter: -1 };

describe("operators and sessions", () => {
  test("a name is taken whatever its case; the hash never leaves through listOperators", async () => {
    const a = await admin().addOperator({ name: "Alice", passwordHash: "h1", now: 100 });
    expect(a).toMatchObject({ name: "Alice", createdAt: 100, lastLoginAt: 0 });
    expect(await admin().addOperator({ name: "alice", passwordHash: "h2", now: 101 })).toBeNull();
    expect((await admin().findOperator("ALICE"))?.passwordHash).toBe("h1");
    expect(JSON.stringify(await admin().listOperators())).not.toContain("h1");
  });

  test("the sessions table holds the token's SHA-256, never the token", async () => {
    const op = (await admin().addOperator({ name: "alice", passwordHash: "h", now: 1 }))!;
    const token = newToken();
    await admin().createSession({ operatorId: op.id, tokenHash: hashToken(token), now: 5, ip: "203.0.113.1", userAgent: "UA" });
    const db = new Database(h.dbPath, { readonly: true });
    const rows = JSON.stringify(db.query("SELECT * FROM operator_sessions").all());
    db.close();
    expect(rows).not.toContain(token);
    expect(rows).toContain(hashToken(token));
    expect((await admin().findSession(hashToken(token)))?.operatorName).toBe("alice");
    expect((await admin().findOperator("alice"))?.lastLoginAt).toBe(5);
  });

  test("a new password keeps the given session and ends the others; removing the operator ends all", async () => {
    const op = (await admin().addOperator({ name: "alice", passwordHash: "h", now: 1 }))!;
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await admin().createSession({ operatorId: op.id, tokenHash: `t${i}`, now: 2, ip: "", userAgent: "" })).id);
    expect(await admin().setPassword(op.id, "h2", 3, ids[1])).toBe(2);
    expect((await admin().listSessions({ live: everything })).map((s) => s.id)).toEqual([ids[1]!]);
    expect(await admin().removeOperator(op.id)).toBe(true);
    expect(await admin().listSessions({ live: everything })).toEqual([]);
  });

  test("only live sessions are listed, and pruning removes the others", async () => {
    const op = (await admin().addOperator({ name: "alice", passwordHash: "h", now: 1 }))!;
    await admin().createSession({ operatorId: op.id, tokenHash: "old", now: 1000, ip: "", userAgent: "" });
    await admin().createSession({ operatorId: op.id, tokenHash: "new", now: 5000, ip: "", userAgent: "" });
    const live = liveWindow(6000, { idle: 1800, max: 43200 });
    expect((await admin().listSessions({ live })).map((s) => s.createdAt)).toEqual([5000]);
    expect(await admin().pruneSessions(live)).toBe(1);
    expect((await admin().listSessions({ live: everything })).length).toBe(1);
  });

  test("deleteSession with an owner deletes only that owner's session", async () => {
    const a = (await admin().addOperator({ name: "alice", passwordHash: "h", now: 1 }))!;
    const b = (await admin().addOperator({ name: "bob", passwordHash: "h", now: 1 }))!;
    const s = await admin().createSession({ operatorId: a.id, tokenHash: "x", now: 1, ip: "", userAgent: "" });
    expect(await admin().deleteSession(s.id, b.id)).toBe(false);
    expect(await admin().deleteSession(s.id, a.id)).toBe(true);
  });
});

describe("first-run setup", () => {
  const unit = (tokenHash: string, name = "alice") => ({ tokenHash, now: 10, name, passwordHash: "h", session: { tokenHash: `s-${name}`, ip: "", userAgent: "" } });

  test("a valid token creates the operator and a session and burns every token; a second use fails", async () => {
    await admin().addSetupToken("tok", 1, 100);
    expect(await admin().setupTokenValid("tok", 50)).toBe(true);
    const r = await admin().completeSetup(unit("tok"));
    expect(r.kind).toBe("done");
    expect(await admin().setupTokenValid("tok", 50)).toBe(false);
    expect((await admin().completeSetup(unit("tok", "bob"))).kind).toBe("operator_exists");
    expect((await admin().listOperators()).map((o) => o.name)).toEqual(["alice"]);
  });

  test("an expired, unknown or replaced token creates nothing", async () => {
    await admin().addSetupToken("first", 1, 100);
    await admin().addSetupToken("second", 2, 100);
    expect((await admin().completeSetup(unit("first"))).kind).toBe("bad_token");
    expect((await admin().completeSetup({ ...unit("second"), now: 100 })).kind).toBe("bad_token");
    expect((await admin().completeSetup(unit("nope"))).kind).toBe("bad_token");
    expect(await admin().countOperators()).toBe(0);
  });

  test("no token works once an operator exists", async () => {
    await admin().addOperator({ name: "bob", passwordHash: "h", now: 1 });
    await admin().addSetupToken("tok", 1, 100);
    expect((await admin().completeSetup(unit("tok"))).kind).toBe("operator_exists");
  });
});

describe("audit log", () => {
  async function fill(n: number) {
    for (let i = 1; i <= n; i++) {
      await admin().appendAudit({ at: i, actor: i % 2 ? "Alice" : "cli", action: i % 3 ? "session.login" : "operator.add", target: `t${i}`, ip: "", before: null, after: { i }, reason: "" });
    }
  }

  test("newest first, keyset pages both ways, filters by actor (any case) and action", async () => {
    await fill(30);
    const first = await admin().listAudit({ limit: 10 });
    expect(first.map((e) => e.id)).toEqual([30, 29, 28, 27, 26, 25, 24, 23, 22, 21]);
    expect((await admin().listAudit({ limit: 10, beforeId: 21 })).map((e) => e.id)[0]).toBe(20);
    expect((await admin().listAudit({ limit: 3, afterId: 10 })).map((e) => e.id)).toEqual([13, 12, 11]);
    expect((await admin().listAudit({ limit: 100, actor: "alice" })).every((e) => e.actor === "Alice")).toBe(true);
    expect((await admin().listAudit({ limit: 100, action: "operator.add" })).map((e) => e.id)).toEqual([30, 27, 24, 21, 18, 15, 12, 9, 6, 3]);
    expect((await admin().listAudit({ limit: 1 }))[0]!.after).toEqual({ i: 30 });
  });

  test("redact masks every secret-named field, however deep, and keeps the rest", () => {
    expect(secretKey("app_secret") && secretKey("passwordHash") && secretKey("rsa-private-key") && secretKey("sign") && secretKey("key")).toBe(true);
    expect(secretKey("name") || secretKey("monkey") || secretKey("design") || secretKey("tokens_used")).toBe(false);
    expect(redact({ name: "Shop", secret: "abc", nested: { api_key: "k", list: [{ password: "p" }] }, pem: "-----BEGIN PRIVATE KEY-----x" })).toEqual({
      name: "Shop", secret: "***", nested: { api_key: "***", list: [{ password: "***" }] }, pem: "***",
    });
  });
});

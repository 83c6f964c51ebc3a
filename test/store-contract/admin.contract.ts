// Store.admin (the operator console's part of the store): operators unique whatever the case of
// their names, sessions by token hash, the first-run unit once and only while no operator exists
// (also when two instances are handed the same link), the audit log's keyset pages and filters, and
// the failed-login counters (issue 27: added up across instances, read per scope, pruned by minute).
import { expect, test } from "bun:test";
import { hashToken, liveWindow, newToken } from "../../src/core/admin/sessions.ts";
import type { Ctx } from "./harness.ts";

const everything = { lastUsedAfter: -1, createdAfter: -1 };
const setup = (tokenHash: string, name = "alice", now = 10) => ({ tokenHash, now, name, passwordHash: "h", session: { tokenHash: `s-${name}`, ip: "", userAgent: "" } });

export function adminContract(ctx: Ctx): void {
  const admin = () => ctx.store.admin;

  test("admin: a name is taken whatever its case; found in any case; the hash never leaves through listOperators", async () => {
    const a = await admin().addOperator({ name: "Alice", passwordHash: "h1", now: 100 });
    expect(a).toEqual({ id: a!.id, name: "Alice", createdAt: 100, passwordChangedAt: 100, lastLoginAt: 0 });
    expect(await admin().addOperator({ name: "alice", passwordHash: "h2", now: 101 })).toBeNull();
    expect((await admin().findOperator("ALICE"))?.passwordHash).toBe("h1");
    expect(await admin().findOperator("bob")).toBeNull();
    expect(await admin().countOperators()).toBe(1);
    expect(JSON.stringify(await admin().listOperators())).not.toContain("h1");
  });

  test("admin: a session is found by its token's hash, stamps the login, and is touched forward only", async () => {
    const op = (await admin().addOperator({ name: "alice", passwordHash: "h", now: 1 }))!;
    const token = newToken();
    const s = await admin().createSession({ operatorId: op.id, tokenHash: hashToken(token), now: 5, ip: "203.0.113.1", userAgent: "UA" });
    expect(s).toEqual({ id: s.id, operatorId: op.id, operatorName: "alice", createdAt: 5, lastUsedAt: 5, ip: "203.0.113.1", lastIp: "203.0.113.1", userAgent: "UA" });
    expect(await admin().findSession(hashToken(token))).toEqual(s);
    expect(await admin().findSession(token)).toBeNull();
    expect((await admin().findOperator("alice"))?.lastLoginAt).toBe(5);
    await admin().touchSession(s.id, 9, "198.51.100.2");
    await admin().touchSession(s.id, 7, "198.51.100.3"); // a late request does not move it back
    expect(await admin().findSession(hashToken(token))).toMatchObject({ lastUsedAt: 9, lastIp: "198.51.100.3", ip: "203.0.113.1" });
  });

  test("admin: a new password keeps the given session and ends the others; removing the operator ends all", async () => {
    const op = (await admin().addOperator({ name: "alice", passwordHash: "h", now: 1 }))!;
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await admin().createSession({ operatorId: op.id, tokenHash: `t${i}`, now: 2, ip: "", userAgent: "" })).id);
    expect(await admin().setPassword(op.id, "h2", 3, ids[1])).toBe(2);
    expect(await admin().findOperator("alice")).toMatchObject({ passwordHash: "h2", passwordChangedAt: 3 });
    expect((await admin().listSessions({ live: everything })).map((s) => s.id)).toEqual([ids[1]!]);
    expect(await admin().removeOperator(op.id)).toBe(true);
    expect(await admin().removeOperator(op.id)).toBe(false);
    expect(await admin().listSessions({ live: everything })).toEqual([]);
  });

  test("admin: only live sessions are listed (newest use first, by operator), pruning removes the others", async () => {
    const a = (await admin().addOperator({ name: "alice", passwordHash: "h", now: 1 }))!;
    const b = (await admin().addOperator({ name: "bob", passwordHash: "h", now: 1 }))!;
    await admin().createSession({ operatorId: a.id, tokenHash: "old", now: 1000, ip: "", userAgent: "" });
    const newer = await admin().createSession({ operatorId: a.id, tokenHash: "new", now: 5000, ip: "", userAgent: "" });
    const bobs = await admin().createSession({ operatorId: b.id, tokenHash: "bob", now: 5500, ip: "", userAgent: "" });
    const live = liveWindow(6000, { idle: 1800, max: 43200 });
    expect((await admin().listSessions({ live })).map((s) => s.id)).toEqual([bobs.id, newer.id]);
    expect((await admin().listSessions({ live, operatorId: a.id })).map((s) => s.id)).toEqual([newer.id]);
    expect(await admin().pruneSessions(live)).toBe(1);
    expect((await admin().listSessions({ live: everything })).length).toBe(2);
  });

  test("admin: deleteSession with an owner deletes only that owner's; deleteSessions keeps the one excepted", async () => {
    const a = (await admin().addOperator({ name: "alice", passwordHash: "h", now: 1 }))!;
    const b = (await admin().addOperator({ name: "bob", passwordHash: "h", now: 1 }))!;
    const s = await admin().createSession({ operatorId: a.id, tokenHash: "x", now: 1, ip: "", userAgent: "" });
    expect(await admin().deleteSession(s.id, b.id)).toBe(false);
    expect(await admin().deleteSession(s.id, a.id)).toBe(true);
    const keep = await admin().createSession({ operatorId: a.id, tokenHash: "y", now: 1, ip: "", userAgent: "" });
    await admin().createSession({ operatorId: a.id, tokenHash: "z", now: 1, ip: "", userAgent: "" });
    await admin().createSession({ operatorId: b.id, tokenHash: "w", now: 1, ip: "", userAgent: "" });
    expect(await admin().deleteSessions(a.id, keep.id)).toBe(1);
    expect((await admin().listSessions({ live: everything })).map((x) => x.operatorName).sort()).toEqual(["alice", "bob"]);
    expect(await admin().deleteSession(keep.id)).toBe(true);
  });

  test("admin setup: a valid token creates the operator and its session and burns every token; a second use fails", async () => {
    await admin().addSetupToken("tok", 1, 100);
    expect(await admin().setupTokenValid("tok", 50)).toBe(true);
    expect(await admin().setupTokenValid("tok", 100)).toBe(false);
    const r = await admin().completeSetup(setup("tok"));
    expect(r.kind === "done" && [r.operator.name, r.operator.lastLoginAt, r.session.operatorName]).toEqual(["alice", 10, "alice"]);
    expect(await admin().setupTokenValid("tok", 50)).toBe(false);
    expect((await admin().completeSetup(setup("tok", "bob"))).kind).toBe("operator_exists");
    expect((await admin().listOperators()).map((o) => o.name)).toEqual(["alice"]);
  });

  test("admin setup: an expired, unknown or replaced token creates nothing; none works once an operator exists", async () => {
    await admin().addSetupToken("first", 1, 100);
    await admin().addSetupToken("second", 2, 100);
    expect((await admin().completeSetup(setup("first"))).kind).toBe("bad_token");
    expect((await admin().completeSetup(setup("second", "alice", 100))).kind).toBe("bad_token");
    expect((await admin().completeSetup(setup("nope"))).kind).toBe("bad_token");
    expect(await admin().countOperators()).toBe(0);
    await admin().addOperator({ name: "bob", passwordHash: "h", now: 1 });
    expect((await admin().completeSetup(setup("second"))).kind).toBe("operator_exists");
  });

  test("admin setup: one link used at once on two instances creates one operator", async () => {
    const other = await ctx.another();
    await other.admin.countOperators(); // connected: the race below is a race
    for (let round = 0; round < 5; round++) {
      await admin().addSetupToken(`tok${round}`, 1, 100);
      const results = await Promise.all([admin().completeSetup(setup(`tok${round}`, "alice")), other.admin.completeSetup(setup(`tok${round}`, "bob"))]);
      expect(results.filter((r) => r.kind === "done").length).toBe(1);
      const [only, ...more] = await admin().listOperators();
      expect([more.length, (await admin().listSessions({ live: everything })).length]).toEqual([0, 1]);
      await admin().removeOperator(only!.id);
    }
  });

  test("admin audit: newest first, keyset pages both ways, filters by actor (any case), action and target", async () => {
    for (let i = 1; i <= 30; i++) {
      const id = await admin().appendAudit({ at: i, actor: i % 2 ? "Alice" : "cli", action: i % 3 ? "session.login" : "operator.add", target: `t${i % 5}`, ip: "", before: i === 30 ? null : { n: i - 1 }, after: { i }, reason: i === 30 ? "why" : "" });
      expect(id).toBe(i);
    }
    expect((await admin().listAudit({ limit: 10 })).map((e) => e.id)).toEqual([30, 29, 28, 27, 26, 25, 24, 23, 22, 21]);
    expect((await admin().listAudit({ limit: 10, beforeId: 21 })).map((e) => e.id)[0]).toBe(20);
    expect((await admin().listAudit({ limit: 3, afterId: 10 })).map((e) => e.id)).toEqual([13, 12, 11]);
    expect((await admin().listAudit({ limit: 100, actor: "alice" })).map((e) => e.id)).toEqual([29, 27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1]);
    expect((await admin().listAudit({ limit: 100, action: "operator.add" })).map((e) => e.id)).toEqual([30, 27, 24, 21, 18, 15, 12, 9, 6, 3]);
    expect((await admin().listAudit({ limit: 100, target: "t0", action: "operator.add" })).map((e) => e.id)).toEqual([30, 15]);
    expect((await admin().listAudit({ limit: 1 }))[0]).toEqual({ id: 30, at: 30, actor: "cli", action: "operator.add", target: "t0", ip: "", before: null, after: { i: 30 }, reason: "why" });
    expect((await admin().listAudit({ limit: 1, beforeId: 30 }))[0]!.before).toEqual({ n: 28 });
  });

  test("admin login counters: added per (user, browser, minute, address); taken back to nothing they go; read per scope", async () => {
    const k = (user: string, ip: string, device: string, window: number) => ({ user, ip, device, window });
    await admin().countLogin(k("alice", "198.51.100.1", "", 60), { failed: 1, refused: 0 }, 61);
    await admin().countLogin(k("alice", "198.51.100.1", "", 60), { failed: 1, refused: 2 }, 75);
    await admin().countLogin(k("alice", "198.51.100.2", "", 120), { failed: 1, refused: 0 }, 121);
    await admin().countLogin(k("bob", "198.51.100.1", "", 120), { failed: 3, refused: 0 }, 122);
    await admin().countLogin(k("alice", "198.51.100.9", "d:1", 120), { failed: 4, refused: 0 }, 123);
    await admin().countLogin(k("alice", "198.51.100.1", "", 0), { failed: 1, refused: 0 }, 5); // before `since` below
    // An attempt counted, then taken back (it succeeded): its row goes; a refusal stays.
    await admin().countLogin(k("carol", "198.51.100.3", "", 120), { failed: 1, refused: 0 }, 124);
    await admin().countLogin(k("carol", "198.51.100.3", "", 120), { failed: -1, refused: 0 }, 125);
    await admin().countLogin(k("dave", "198.51.100.4", "", 120), { failed: 1, refused: 0 }, 124);
    await admin().countLogin(k("dave", "198.51.100.4", "", 120), { failed: -1, refused: 1 }, 126);
    await admin().countLogin(k("dave", "198.51.100.4", "", 120), { failed: -1, refused: 0 }, 127); // never below 0
    expect(await admin().loginWindows({ user: "alice", ip: "198.51.100.1", device: "d:1", since: 60 })).toEqual({
      ip: [{ window: 60, failed: 2 }, { window: 120, failed: 3 }], // unknown browsers at the address, any user
      user: [{ window: 60, failed: 2 }, { window: 120, failed: 1 }], // unknown browsers on the user, any address
      device: [{ window: 120, failed: 4 }],
    });
    expect((await admin().loginWindows({ user: "alice", ip: "198.51.100.1", device: "", since: 60 })).device).toEqual([]);
    const all = await admin().listLoginFailures({ since: 0, limit: 100 });
    expect(all.map((r) => [r.window, r.user, r.ip, r.device, r.failed, r.refused])).toEqual([
      [120, "alice", "198.51.100.9", "d:1", 4, 0],
      [120, "bob", "198.51.100.1", "", 3, 0],
      [120, "alice", "198.51.100.2", "", 1, 0], // busiest first, then by name
      [120, "dave", "198.51.100.4", "", 0, 1],
      [60, "alice", "198.51.100.1", "", 2, 2],
      [0, "alice", "198.51.100.1", "", 1, 0],
    ]);
    expect(all[4]).toEqual({ user: "alice", ip: "198.51.100.1", device: "", window: 60, failed: 2, refused: 2, firstAt: 61, lastAt: 75 });
    expect((await admin().listLoginFailures({ since: 60, user: "bob", limit: 100 })).map((r) => r.failed)).toEqual([3]);
    expect(await admin().listLoginFailures({ since: 0, limit: 2 })).toHaveLength(2);
    expect(await admin().pruneLoginFailures(120, 1)).toBe(1);
    expect(await admin().pruneLoginFailures(120, 10)).toBe(1);
    expect((await admin().listLoginFailures({ since: 0, limit: 100 })).map((r) => r.window)).toEqual([120, 120, 120, 120]);
  });

  test("admin login counters: attempts counted at once on two instances all add up", async () => {
    const other = await ctx.another();
    const key = { user: "alice", ip: "198.51.100.1", device: "", window: 600 };
    await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? other : ctx.store).admin.countLogin(key, { failed: 1, refused: i % 3 === 0 ? 1 : 0 }, 600 + i)));
    const [row] = await admin().listLoginFailures({ since: 0, limit: 10 });
    expect(row).toEqual({ ...key, failed: 40, refused: 14, firstAt: 600, lastAt: 639 });
  });
}

// Issues 17 and 22, sessions: idle and absolute expiry (settings, ManualClock), a revoked session
// refused on its next request, "log out everywhere", a password change that logs out the other
// sessions, the sessions page (created, last used, IP, user agent) and its revoke action.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { CLI_ACTOR } from "../../src/core/admin/audit.ts";
import { revokeSession, startSession } from "../../src/core/admin/sessions.ts";
import { type AdminHarness, adminHarness, auditRows, loginForm, PASSWORD } from "./support.ts";

let h: AdminHarness;
beforeEach(async () => (h = await adminHarness()));
afterEach(() => h.close());

const loggedIn = async (cookie: string) => (await h.get("/admin", { cookie })).status === 200;

describe("expiry", () => {
  test("idle: a session unused for admin_session_idle (default 1800 s) is gone; each use pushes the end back", async () => {
    const s = await h.session();
    h.clock.advance(1799);
    expect(await loggedIn(s.cookie)).toBe(true);
    h.clock.advance(1799); // 1799 s after the last use
    expect(await loggedIn(s.cookie)).toBe(true);
    h.clock.advance(1800);
    expect(await loggedIn(s.cookie)).toBe(false);
    expect(await h.gw.store.admin.findSession((await import("../../src/core/admin/sessions.ts")).hashToken(s.cookie.split("=")[1]!))).toBeNull(); // deleted, not just refused
  });

  test("absolute: a session busy all along still ends admin_session_max (default 43200 s) after its login", async () => {
    const s = await h.session();
    for (let t = 0; t < 43200 - 1200; t += 1200) {
      h.clock.advance(1200);
      expect(await loggedIn(s.cookie)).toBe(true);
    }
    h.clock.advance(1200);
    expect(await loggedIn(s.cookie)).toBe(false);
  });

  test("the settings change the limits; the shorter one wins", async () => {
    await h.gw.store.setSetting("admin_session_idle", "600");
    await h.gw.store.setSetting("admin_session_max", "900");
    h.gw.forgetSettings();
    const s = await h.session();
    h.clock.advance(500);
    expect(await loggedIn(s.cookie)).toBe(true);
    h.clock.advance(500);
    expect(await loggedIn(s.cookie)).toBe(false);
    const t = await h.session();
    h.clock.advance(601);
    expect(await loggedIn(t.cookie)).toBe(false);
  });

  test("last use is written at most once a minute, with the address", async () => {
    const s = await h.session();
    const at = (await h.gw.store.admin.listSessions({ live: { lastUsedAfter: 0, createdAfter: 0 } })).find((x) => x.id === s.sessionId)!.lastUsedAt;
    h.clock.advance(30);
    await loggedIn(s.cookie);
    const after30 = (await h.gw.store.admin.listSessions({ live: { lastUsedAfter: 0, createdAfter: 0 } })).find((x) => x.id === s.sessionId)!;
    expect(after30.lastUsedAt).toBe(at);
    h.clock.advance(31);
    await loggedIn(s.cookie);
    const after61 = (await h.gw.store.admin.listSessions({ live: { lastUsedAfter: 0, createdAfter: 0 } })).find((x) => x.id === s.sessionId)!;
    expect(after61.lastUsedAt).toBe(at + 61);
  });
});

describe("revocation", () => {
  test("a session revoked from the terminal is refused on its next request", async () => {
    const s = await h.session();
    expect(await loggedIn(s.cookie)).toBe(true);
    expect(await revokeSession(h.gw, CLI_ACTOR, s.sessionId)).toBe(true);
    expect(await loggedIn(s.cookie)).toBe(false);
    expect((await h.post("/admin/sessions/revoke-all", {}, { cookie: s.cookie, csrf: s.csrf })).status).toBe(401);
  });

  test("the sessions page revokes another session of mine (htmx swaps the table) and it is refused next time", async () => {
    const other = await h.session();
    const res = await h.post(`/admin/sessions/${other.sessionId}/revoke`, {}, { headers: { "hx-request": "true" } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html.startsWith('<div class="card" id="sessions">')).toBe(true);
    expect(html).toContain("会话已注销。");
    expect(html).not.toContain(`data-session="${other.sessionId}"`);
    expect(await loggedIn(other.cookie)).toBe(false);
    expect(await loggedIn(h.login.cookie)).toBe(true);
    expect((await auditRows(h)).at(-1)).toMatchObject({ actor: "alice", action: "session.revoke", target: `session:${other.sessionId}` });
  });

  test("without script the revoke form posts and comes back to the page", async () => {
    const other = await h.session();
    const res = await h.post(`/admin/sessions/${other.sessionId}/revoke`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin/sessions");
    expect(await loggedIn(other.cookie)).toBe(false);
  });

  test("another operator's session cannot be revoked from my page", async () => {
    const bob = await h.session(await h.addOperator("bob"));
    await h.post(`/admin/sessions/${bob.sessionId}/revoke`, {}, { headers: { "hx-request": "true" } });
    expect(await loggedIn(bob.cookie)).toBe(true);
    expect((await auditRows(h)).some((e) => e.action === "session.revoke")).toBe(false);
  });

  test("log out everywhere ends every session of mine, this one included, and no one else's", async () => {
    const second = await h.session();
    const bob = await h.session(await h.addOperator("bob"));
    const res = await h.post("/admin/sessions/revoke-all");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin/login?out=1");
    expect(await loggedIn(h.login.cookie)).toBe(false);
    expect(await loggedIn(second.cookie)).toBe(false);
    expect(await loggedIn(bob.cookie)).toBe(true);
    expect((await auditRows(h)).at(-1)).toMatchObject({ action: "session.revoke_all", target: "operator:alice", after: { revoked: 2 } });
  });
});

describe("the sessions page", () => {
  test("lists my live sessions with login time, last use, addresses and user agent, marking this one", async () => {
    await startSession(h.gw, h.operator, { ip: "203.0.113.7", userAgent: "Mozilla/5.0 (iPhone) Safari" });
    await startSession(h.gw, await h.addOperator("bob"), { ip: "203.0.113.8", userAgent: "bob's browser" });
    const html = await (await h.get("/admin/sessions")).text();
    expect(html).toContain("Mozilla/5.0 (iPhone) Safari");
    expect(html).toContain("203.0.113.7");
    expect(html).not.toContain("bob&#39;s browser");
    expect(html).not.toContain("bob's browser");
    expect(html).toContain("当前会话");
    expect(html.match(/<tr data-session=/g)?.length).toBe(2);
  });
});

describe("password change", () => {
  const form = (o: Partial<Record<"current" | "password" | "repeat", string>>) => ({ current: PASSWORD, password: "a brand new secret", repeat: "a brand new secret", ...o });

  test("wrong current password, mismatch, too short: an inline error on the field (422), nothing changed", async () => {
    const other = await h.session();
    const cases: [Record<string, string>, string, string][] = [
      [form({ current: "not it at all" }), "current", "当前密码不正确。"],
      [form({ repeat: "something else" }), "repeat", "两次输入的密码不一致。"],
      [form({ password: "short", repeat: "short" }), "password", "密码至少 10 个字符。"],
      [form({ password: "abababababab", repeat: "abababababab" }), "password", "密码不能只由一两个字符重复组成。"],
    ];
    for (const [body, field, message] of cases) {
      for (const htmx of [true, false]) {
        const res = await h.post("/admin/sessions/password", body, { headers: htmx ? { "hx-request": "true" } : {} });
        expect(res.status).toBe(422);
        const html = await res.text();
        expect(html).toContain(`<p class="field-error" id="f-${field}-error">${message}</p>`);
        expect(html).toContain(`id="f-${field}" name="${field}" type="password" autocomplete`);
        expect(html).not.toContain(body.password!);
      }
    }
    expect(await loggedIn(other.cookie)).toBe(true);
    expect((await loginForm(h, "alice", PASSWORD)).status).toBe(303);
    expect((await auditRows(h)).some((e) => e.action === "operator.password")).toBe(false);
  });

  test("a good change keeps this session, ends the others, and the new password logs in", async () => {
    const other = await h.session();
    const res = await h.post("/admin/sessions/password", form({}), { headers: { "hx-request": "true" } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("密码已修改，其他 1 个会话已退出。");
    expect(await loggedIn(h.login.cookie)).toBe(true);
    expect(await loggedIn(other.cookie)).toBe(false);
    expect((await loginForm(h, "alice", PASSWORD)).status).toBe(401);
    expect((await loginForm(h, "alice", "a brand new secret")).status).toBe(303);
    expect((await auditRows(h)).find((e) => e.action === "operator.password")).toMatchObject({ actor: "alice", target: "operator:alice", after: { sessions_revoked: 1 } });
  });
});

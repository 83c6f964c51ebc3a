// Issue 17, login: the session cookie's attributes, one message for a wrong name or password, the
// pre-session token, the way back after login (never off the console), failures logged without
// the password and counted (issue 27: not audited), and the throttle for browsers that never
// logged in (test/security/console-lockout.test.ts has the known ones): 10 a minute per address,
// 5 in 15 minutes per user name, with a clear Chinese message, counted with the ManualClock.
import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { LogFields } from "../../src/core/log.ts";
import { type AdminHarness, adminHarness, auditRows, loginForm, ORIGIN, PASSWORD, sessionCookieOf } from "./support.ts";

setDefaultTimeout(30_000); // argon2 on every attempt, on a shared two-core machine
let h: AdminHarness;
beforeEach(async () => (h = await adminHarness({ trustProxy: 1 })));
afterEach(() => h.close());

describe("login", () => {
  test("a right password opens a session: HttpOnly, SameSite=Strict, Path=/admin cookie, back to the page asked for", async () => {
    const res = await loginForm(h, "alice", PASSWORD, { next: "/admin/audit?user=cli" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin/audit?user=cli");
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("xpay_session="))!;
    expect(cookie).toMatch(/^xpay_session=[A-Za-z0-9_-]{43}; Path=\/admin; SameSite=Strict; HttpOnly$/);
    const token = sessionCookieOf(res)!;
    expect((await h.get("/admin", { cookie: `xpay_session=${token}` })).status).toBe(200);
    expect((await auditRows(h)).at(-1)).toMatchObject({ actor: "alice", action: "session.login" });
  });

  test("the name is case-insensitive; the page to go back to is never outside the console", async () => {
    for (const next of ["https://evil.example/", "//evil.example/admin", "/admin/../x", "/elsewhere", "/admin\\@evil"]) {
      const res = await loginForm(h, "ALICE", PASSWORD, { next, ip: `198.51.100.${next.length}` });
      expect({ next, location: res.headers.get("location") }).toEqual({ next, location: "/admin" });
    }
  });

  test("a wrong password and an unknown name get the same answer; the failure is logged without the password and counted, not audited", async () => {
    const lines: [string, LogFields][] = [];
    h.gw.log = { event: (n, f = {}) => lines.push([n, f]), error: (n, f = {}) => lines.push([n, f]) };
    const wrong = await loginForm(h, "alice", "not the password", { ip: "198.51.100.1" });
    const unknown = await loginForm(h, "mallory", "not the password", { ip: "198.51.100.1" });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(sessionCookieOf(res)).toBeUndefined();
      expect(await res.text()).toContain("用户名或密码错误。");
    }
    expect(lines.filter(([n]) => n === "admin.login_failed").map(([, f]) => f)).toEqual([
      { user: "alice", ip: "198.51.100.1", known: false },
      { user: "mallory", ip: "198.51.100.1", known: false },
    ]);
    expect(JSON.stringify(lines)).not.toContain("not the password");
    const counted = await h.gw.store.admin.listLoginFailures({ since: 0, limit: 10 });
    expect(counted.map((c) => [c.user, c.ip, c.device, c.failed, c.refused]).sort()).toEqual([["alice", "198.51.100.1", "", 1, 0], ["mallory", "198.51.100.1", "", 1, 0]]);
    expect((await auditRows(h)).filter((e) => e.action !== "operator.add")).toEqual([]);
  });

  test("without the pre-session cookie and its form token the login is refused, even with the right password", async () => {
    const form = new URLSearchParams({ user: "alice", password: PASSWORD });
    const res = await h.app.handle(new Request(`${ORIGIN}/admin/login`, { method: "POST", headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" }, body: form.toString() }));
    expect(res.status).toBe(403);
    expect(sessionCookieOf(res)).toBeUndefined();
    const forged = new URLSearchParams({ user: "alice", password: PASSWORD, _csrf: "x".repeat(43) });
    const res2 = await h.app.handle(
      new Request(`${ORIGIN}/admin/login`, { method: "POST", headers: { origin: ORIGIN, cookie: "xpay_pre=AAAAAAAAAAAAAAAAAAAAAA", "content-type": "application/x-www-form-urlencoded" }, body: forged.toString() }),
    );
    expect(res2.status).toBe(403);
  });

  test("an empty field is an inline message, and nothing is counted against the throttle", async () => {
    for (let i = 0; i < 12; i++) expect((await loginForm(h, "alice", "", { ip: "198.51.100.7" })).status).toBe(422);
    expect((await loginForm(h, "alice", PASSWORD, { ip: "198.51.100.7" })).status).toBe(303);
  });

  test("the login page sends a logged-in browser on to the console", async () => {
    const res = await h.get("/admin/login?next=%2Fadmin%2Fsessions");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin/sessions");
  });

  test("logout ends the session, clears the cookie and is audited", async () => {
    const s = await h.session();
    const res = await h.post("/admin/logout", {}, { cookie: s.cookie, csrf: s.csrf });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin/login?out=1");
    expect(res.headers.getSetCookie()).toContain("xpay_session=; Path=/admin; SameSite=Strict; HttpOnly; Max-Age=0");
    expect((await h.get("/admin", { cookie: s.cookie })).status).toBe(303);
    expect((await auditRows(h)).at(-1)).toMatchObject({ actor: "alice", action: "session.logout", target: `session:${s.sessionId}` });
    expect(await (await h.get("/admin/login?out=1", { cookie: null })).text()).toContain("已退出登录。");
  });
});

/** Moves the clock to the start of the next minute: counters are per minute. */
const toMinuteStart = () => h.clock.advance(60 - (h.clock.now() % 60));

describe("throttle", () => {
  test("11th attempt in a minute from one address: 429, the Chinese message with the wait, Retry-After; the next minute it may try again", async () => {
    toMinuteStart();
    h.clock.advance(54);
    for (let i = 0; i < 10; i++) expect((await loginForm(h, `user${i}`, "wrong password", { ip: "198.51.100.2" })).status).toBe(401);
    const res = await loginForm(h, "alice", PASSWORD, { ip: "198.51.100.2" });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("6");
    expect(await res.text()).toContain("尝试次数过多，请 6 秒后再试。");
    expect(sessionCookieOf(res)).toBeUndefined();
    // Another address is not held back by this one.
    expect((await loginForm(h, "alice", PASSWORD, { ip: "198.51.100.3" })).status).toBe(303);
    h.clock.advance(6);
    expect((await loginForm(h, "alice", PASSWORD, { ip: "198.51.100.2" })).status).toBe(303);
  });

  test("6th failure on one user name in 15 minutes is refused to every unknown browser, the right password included, until the oldest minute is 15 minutes old", async () => {
    toMinuteStart();
    for (let i = 0; i < 5; i++) {
      expect((await loginForm(h, "alice", "wrong password", { ip: `198.51.100.${10 + i}` })).status).toBe(401);
      h.clock.advance(60); // one a minute: the first leaves the span first
    }
    const res = await loginForm(h, "Alice", PASSWORD, { ip: "203.0.113.50" });
    expect(res.status).toBe(429);
    expect(await res.text()).toContain("尝试次数过多，请 600 秒后再试。");
    // The address was not charged for that refusal: its whole minute's share is still there.
    for (let i = 0; i < 10; i++) expect((await loginForm(h, `nobody${i}`, "x", { ip: "203.0.113.50" })).status).toBe(401);
    h.clock.advance(599);
    expect((await loginForm(h, "alice", PASSWORD, { ip: "203.0.113.51" })).status).toBe(429);
    h.clock.advance(1);
    expect((await loginForm(h, "alice", PASSWORD, { ip: "203.0.113.51" })).status).toBe(303);
  });

  test("successful logins cost nothing", async () => {
    for (let i = 0; i < 15; i++) expect((await loginForm(h, "alice", PASSWORD, { ip: "198.51.100.4" })).status).toBe(303);
    expect(await h.gw.store.admin.listLoginFailures({ since: 0, limit: 10 })).toEqual([]);
  });

  test("throttled attempts are counted as refused, not as failures, and nothing is audited", async () => {
    toMinuteStart();
    for (let i = 0; i < 30; i++) await loginForm(h, "alice", "wrong password", { ip: `198.51.100.${i % 3}` });
    const counted = await h.gw.store.admin.listLoginFailures({ since: 0, limit: 10 });
    expect(counted.reduce((n, c) => n + c.failed, 0)).toBe(5);
    expect(counted.reduce((n, c) => n + c.refused, 0)).toBe(25);
    expect(counted).toHaveLength(3); // one row per address in this minute
    expect((await auditRows(h)).filter((e) => e.action.startsWith("session.login"))).toEqual([]);
  });
});

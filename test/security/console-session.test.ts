// Issue 17 attacker review of console sessions: a session token planted in the victim's browser
// before login (fixation), a pre-session form token used with another browser's cookie, a
// logged-out cookie replayed, the flags of every cookie the console sets, the login throttle
// fed forged X-Forwarded-For without --trust-proxy, and the setup link raced, reused and kept out
// of the access log.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { issueSetupToken } from "../../src/core/admin/setup.ts";
import { maskUrlPath } from "../../src/core/log.ts";
import { harness, type Harness } from "../helpers.ts";
import { type AdminHarness, adminHarness, loginForm, ORIGIN, PASSWORD, sessionCookieOf } from "../admin/support.ts";

let h: AdminHarness;
beforeEach(async () => (h = await adminHarness()));
afterEach(() => h.close());

const form = (path: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
  h.app.handle(new Request(`${ORIGIN}${path}`, { method: "POST", headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(body).toString() }));

/** The login page as one browser sees it: its pre-session cookie and the form's token. */
async function loginPage(cookie = "") {
  const page = await h.app.handle(new Request(`${ORIGIN}/admin/login`, { headers: cookie ? { cookie } : {} }));
  const pre = page.headers.getSetCookie().find((c) => c.startsWith("xpay_pre="))?.split(";")[0] ?? cookie;
  return { pre, token: (await page.text()).match(/name="_csrf" value="([^"]+)"/)![1]! };
}

describe("fixation and replay", () => {
  test("a session cookie planted before login (an attacker's own, or one he made up) is replaced, never adopted", async () => {
    await h.addOperator("mallory");
    const mallory = await h.session((await h.gw.store.admin.findOperator("mallory"))!);
    const madeUp = `xpay_session=${"A".repeat(43)}`;
    for (const planted of [mallory.cookie, madeUp]) {
      const { pre, token } = await loginPage();
      const res = await form("/admin/login", { _csrf: token, user: "alice", password: PASSWORD, next: "/admin" }, { cookie: `${planted}; ${pre}` });
      expect(res.status).toBe(303);
      const issued = sessionCookieOf(res)!;
      expect(`xpay_session=${issued}`).not.toBe(planted);
      // The planted token is still whatever it was: mallory's session, or nothing.
      const who = await h.gw.store.admin.findSession(new Bun.CryptoHasher("sha256").update(planted.split("=")[1]!).digest("hex"));
      expect(who?.operatorName ?? null).toBe(planted === madeUp ? null : "mallory");
    }
  });

  test("the login form's token is bound to its own pre-session cookie: another browser's cookie is refused", async () => {
    const a = await loginPage();
    const b = await loginPage();
    expect(a.pre).not.toBe(b.pre);
    const res = await form("/admin/login", { _csrf: a.token, user: "alice", password: PASSWORD }, { cookie: b.pre });
    expect(res.status).toBe(403);
    expect(sessionCookieOf(res)).toBeUndefined();
  });

  test("a cookie replayed after logout, after log out everywhere, or after a password change opens nothing", async () => {
    const s1 = await h.session();
    await h.post("/admin/logout", {}, { cookie: s1.cookie, csrf: s1.csrf });
    const s2 = await h.session();
    const s3 = await h.session();
    await h.post("/admin/sessions/revoke-all", {}, { cookie: s3.cookie, csrf: s3.csrf });
    const s4 = await h.session();
    const s5 = await h.session();
    expect((await h.post("/admin/sessions/password", { current: PASSWORD, password: "another good passphrase", repeat: "another good passphrase" }, { cookie: s5.cookie, csrf: s5.csrf })).status).toBeLessThan(400);
    for (const s of [s1, s2, s3, s4]) {
      expect((await h.get("/admin/orders", { cookie: s.cookie })).status).toBe(303);
      expect((await h.post("/admin/sessions/revoke-all", {}, { cookie: s.cookie, csrf: s.csrf })).status).toBe(401);
    }
  });
});

test("every cookie the console sets is HttpOnly, SameSite=Strict and scoped to /admin", async () => {
  const cookies: string[] = [];
  const keep = (r: Response) => (cookies.push(...r.headers.getSetCookie()), r);
  const { pre, token } = await loginPage();
  keep(await h.app.handle(new Request(`${ORIGIN}/admin/login`)));
  const login = keep(await form("/admin/login", { _csrf: token, user: "alice", password: PASSWORD }, { cookie: pre }));
  const cookie = `xpay_session=${sessionCookieOf(login)}`;
  keep(await h.get("/admin/lang/en?next=/admin", { cookie }));
  keep(await h.post("/admin/logout", {}, { cookie: h.login.cookie }));
  const s = await h.session();
  keep(await h.post("/admin/sessions/revoke-all", {}, { cookie: s.cookie, csrf: s.csrf }));
  const fresh = harness();
  try {
    const setupToken = (await issueSetupToken(fresh.gw))!;
    const done = await fresh.app.handle(new Request(`${ORIGIN}/admin/setup`, { method: "POST", headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ token: setupToken, user: "root", password: PASSWORD, repeat: PASSWORD }).toString() }));
    expect(done.status).toBe(303);
    keep(done);
  } finally {
    fresh.close();
  }
  expect(cookies.length).toBeGreaterThanOrEqual(7);
  for (const c of cookies) expect({ c, flags: ["HttpOnly", "SameSite=Strict", "Path=/admin"].filter((f) => !c.split("; ").includes(f)) }).toEqual({ c, flags: [] });
});

test("without --trust-proxy a forged X-Forwarded-For does not escape the login throttle", async () => {
  for (let i = 0; i < 10; i++) expect((await loginForm(h, `user${i}`, "wrong password", { ip: `198.51.100.${i}` })).status).toBe(401);
  const res = await loginForm(h, "alice", PASSWORD, { ip: "203.0.113.77" });
  expect(res.status).toBe(429);
  expect(sessionCookieOf(res)).toBeUndefined();
});

describe("the setup link", () => {
  let fresh: Harness;
  beforeEach(() => (fresh = harness()));
  afterEach(() => fresh.close());
  const setup = (token: string, user: string) =>
    fresh.app.handle(new Request(`${ORIGIN}/admin/setup`, { method: "POST", headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ token, user, password: PASSWORD, repeat: PASSWORD }).toString() }));

  test("two submissions of one link at once make one operator; the link is then spent", async () => {
    const token = (await issueSetupToken(fresh.gw))!;
    const answers = await Promise.all([setup(token, "first"), setup(token, "second")]);
    expect(answers.map((r) => r.status).sort()).toEqual([303, 410]);
    expect(await fresh.gw.store.admin.countOperators()).toBe(1);
    expect((await setup(token, "third")).status).toBe(410);
  });

  test("a restart's new link retires the old one; a guessed or malformed token opens nothing", async () => {
    const old = (await issueSetupToken(fresh.gw))!;
    const current = (await issueSetupToken(fresh.gw))!;
    for (const t of [old, "A".repeat(43), `${current}x`, current.slice(0, 42), "", "' OR 1=1 --"]) expect({ t, status: (await setup(t, "eve")).status }).toEqual({ t, status: 404 });
    expect(await fresh.gw.store.admin.countOperators()).toBe(0);
    expect((await setup(current, "alice")).status).toBe(303);
  });

  test("the access log line masks the token of a setup link", () => {
    expect(maskUrlPath("/admin/setup?token=abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG")).toBe("/admin/setup?token=***");
  });
});

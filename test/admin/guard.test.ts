// Issue 17: no page or action without a session; a cross-origin POST is refused; a POST without
// the session's CSRF token is refused; a refusal changes nothing; a disabled console is a 404 like
// any unknown path. Every route the pages register is walked, so a page added later is covered.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PAGES } from "../../src/admin/pages/index.ts";
import { type AdminHarness, adminHarness, auditRows, ORIGIN } from "./support.ts";

let h: AdminHarness;
beforeAll(async () => (h = await adminHarness()));
afterAll(() => h.close());

const routes = PAGES.flatMap((p) => p.routes);
/** A concrete path for a route pattern: :params become 1. */
const concrete = (path: string) => path.replace(/:[A-Za-z_]+/g, "1");
const privateGets = routes.filter((r) => !r.public && r.method === "GET").map((r) => concrete(r.path));
const privatePosts = routes.filter((r) => !r.public && r.method === "POST").map((r) => concrete(r.path));

/** What a refused request must leave as it was: operators, sessions, the audit log. */
async function state() {
  return JSON.stringify({ ops: await h.gw.store.admin.listOperators(), sessions: await h.gw.store.admin.listSessions({ live: { lastUsedAfter: 0, createdAfter: 0 } }), audit: await auditRows(h) });
}

test("the pages register GET and POST routes to walk", () => {
  expect(privateGets).toContain("/admin");
  expect(privateGets).toContain("/admin/audit");
  expect(privateGets).toContain("/admin/sessions");
  expect(privatePosts).toContain("/admin/logout");
  expect(privatePosts).toContain("/admin/sessions/revoke-all");
});

describe("without a session", () => {
  test("every page redirects to the login page, naming the page to come back to", async () => {
    for (const path of [...privateGets, "/admin/no-such-page"]) {
      for (const cookie of [null, "xpay_session=forged-token-value", "xpay_session=" + "A".repeat(43)]) {
        const res = await h.get(path, { cookie });
        expect({ path, status: res.status }).toEqual({ path, status: 303 });
        expect(res.headers.get("location")).toBe(`/admin/login?next=${encodeURIComponent(path)}`);
      }
    }
  });

  test("an htmx request is told to go to the login page (401 + HX-Redirect)", async () => {
    const res = await h.get("/admin/sessions", { cookie: null, headers: { "hx-request": "true" } });
    expect(res.status).toBe(401);
    expect(res.headers.get("hx-redirect")).toBe("/admin/login");
  });

  test("every action is refused 401 and changes nothing", async () => {
    const before = await state();
    for (const path of privatePosts) {
      const res = await h.post(path, { password: "x", current: PASSWORD_GUESS, repeat: "x" }, { cookie: null });
      expect({ path, status: res.status }).toEqual({ path, status: 401 });
    }
    expect(await state()).toBe(before);
  });
});

const PASSWORD_GUESS = "correct horse battery";

describe("cross-origin and CSRF", () => {
  test("a POST from another origin is refused 403 with a valid session and token, and changes nothing", async () => {
    const before = await state();
    for (const path of [...privatePosts, "/admin/login", "/admin/setup"]) {
      for (const origin of ["https://evil.example", "http://localhost.evil.example", "null", "http://localhost:8080"]) {
        const res = await h.post(path, { user: "alice", password: "x" }, { origin });
        expect({ path, origin, status: res.status }).toEqual({ path, origin, status: 403 });
      }
    }
    expect(await state()).toBe(before);
  });

  test("a POST with neither Origin nor Referer is refused; a same-origin Referer stands in for Origin", async () => {
    const before = await state();
    expect((await h.post("/admin/sessions/revoke-all", {}, { origin: null })).status).toBe(403);
    expect(await state()).toBe(before);
    // Another operator, so that revoking every session of theirs leaves alice's alone.
    const other = await h.session(await h.addOperator("bob"));
    const res = await h.post("/admin/sessions/revoke-all", {}, { origin: null, cookie: other.cookie, csrf: other.csrf, headers: { referer: `${ORIGIN}/admin/sessions` } });
    expect(res.status).toBe(303);
    expect(await state()).not.toBe(before);
  });

  test("a POST without the CSRF token, with a wrong one, or with another session's, is refused 403 and changes nothing", async () => {
    const other = await h.session();
    const before = await state();
    for (const path of privatePosts) {
      for (const csrf of [null, "", "wrong", other.csrf]) {
        const res = await h.post(path, { current: PASSWORD_GUESS, password: "new password 123", repeat: "new password 123" }, { csrf });
        expect({ path, csrf, status: res.status }).toEqual({ path, csrf, status: 403 });
      }
    }
    expect(await state()).toBe(before);
  });

  test("htmx sends the token as X-CSRF-Token (from <body hx-headers>), which is accepted", async () => {
    const s = await h.session();
    const page = await (await h.get("/admin/sessions", { cookie: s.cookie })).text();
    expect(page).toContain(`hx-headers="{&#34;X-CSRF-Token&#34;:&#34;${s.csrf}&#34;}"`);
    const res = await h.post(`/admin/sessions/${s.sessionId}/revoke`, {}, { cookie: s.cookie, csrf: null, headers: { "x-csrf-token": s.csrf, "hx-request": "true" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("hx-redirect")).toBe("/admin/login?out=1");
  });

  test("a body over 64 KiB is refused before anything is read into the form", async () => {
    const res = await h.post("/admin/sessions/password", { current: "x".repeat(70_000) });
    expect(res.status).toBe(413);
  });
});

describe("behind a trusted proxy", () => {
  test("the forwarded scheme and host are this origin; without --trust-proxy they are not", async () => {
    const proxied = await adminHarness({ trustProxy: 1 });
    const plain = await adminHarness();
    const headers = { "x-forwarded-proto": "https", "x-forwarded-host": "pay.example.com" };
    for (const [hh, expected] of [[proxied, 303], [plain, 403]] as const) {
      const s = await hh.session();
      const res = await hh.post("/admin/sessions/revoke-all", {}, { origin: "https://pay.example.com", cookie: s.cookie, csrf: s.csrf, headers });
      expect(res.status).toBe(expected);
    }
    proxied.close();
    plain.close();
  });

  test("cookies are Secure when the proxy says https, and only then", async () => {
    const proxied = await adminHarness({ trustProxy: 1 });
    const viaHttps = await proxied.get("/admin/login", { cookie: null, headers: { "x-forwarded-proto": "https" } });
    expect(viaHttps.headers.get("set-cookie")).toContain("; Secure");
    const viaHttp = await proxied.get("/admin/login", { cookie: null, headers: { "x-forwarded-proto": "http" } });
    expect(viaHttp.headers.get("set-cookie")).not.toContain("Secure");
    const untrusted = await h.get("/admin/login", { cookie: null, headers: { "x-forwarded-proto": "https" } });
    expect(untrusted.headers.get("set-cookie")).not.toContain("Secure");
    proxied.close();
  });
});

describe("admin_enabled", () => {
  test("0 makes every /admin path answer what an unknown path answers; 1 brings it back", async () => {
    const unknown = await h.app.handle(new Request(`${ORIGIN}/no-such-path`));
    const expected = { status: unknown.status, body: await unknown.text() };
    await h.gw.store.setSetting("admin_enabled", "0");
    h.gw.forgetSettings();
    for (const path of ["/admin", "/admin/login", "/admin/setup?token=x", "/admin/sessions", "/admin/assets/whatever.js"]) {
      const res = await h.get(path);
      expect({ path, status: res.status, body: await res.text() }).toEqual({ path, ...expected });
    }
    expect((await h.post("/admin/login", { user: "alice", password: "x" })).status).toBe(404);
    await h.gw.store.setSetting("admin_enabled", "1");
    h.gw.forgetSettings();
    expect((await h.get("/admin")).status).toBe(200);
  });
});

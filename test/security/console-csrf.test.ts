// Issue 17 attacker review: a state change reached without the POST the guard checks. Every POST
// route of every page is tried as GET and HEAD (with method-override headers and fields), as
// OPTIONS/PUT/DELETE/PATCH, and as a POST whose CSRF token rides where the guard does not read it
// (the query, a text/plain or multipart body), or whose Origin is a look-alike. Nothing may change:
// no audit row (every console action writes one), the session still open.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { PAGES } from "../../src/admin/pages/index.ts";
import { seed } from "../helpers.ts";
import { type AdminHarness, adminHarness, ORIGIN } from "../admin/support.ts";

let h: AdminHarness;
beforeAll(async () => {
  h = await adminHarness();
  await seed(h);
});
afterAll(() => h.close());

const posts = () => PAGES.flatMap((p) => p.routes).filter((r) => r.method === "POST" && !r.public).map((r) => r.path.replace(/:pid/, "1001").replace(/:[a-z_]+/g, "1"));
const auditCount = async () => (await h.gw.store.admin.listAudit({ limit: 1000 })).length;
const send = (method: string, path: string, headers: Record<string, string>, body?: BodyInit) =>
  h.app.handle(new Request(`${ORIGIN}${path}`, { method, headers: { cookie: h.login.cookie, ...headers }, body }));

test("no action answers another method, or a POST with its token where the guard does not read it", async () => {
  const before = await auditCount();
  const csrf = h.login.csrf;
  const override = { "x-http-method-override": "POST", "x-http-method": "POST", "x-method-override": "POST", origin: ORIGIN };
  const changed: string[] = [];
  expect(posts().length).toBeGreaterThan(15);
  for (const path of [...posts(), "/admin/logout"]) {
    const tries: [string, () => Promise<Response>][] = [
      ["GET+override", () => send("GET", `${path}?_method=POST&_csrf=${csrf}`, override)],
      ["HEAD+override", () => send("HEAD", `${path}?_method=POST&_csrf=${csrf}`, override)],
      ...["OPTIONS", "PUT", "DELETE", "PATCH"].map((m): [string, () => Promise<Response>] => [m, () => send(m, path, { ...override, "x-csrf-token": csrf, "content-type": "application/x-www-form-urlencoded" }, `_csrf=${csrf}`)]),
      ["csrf in query", () => send("POST", `${path}?_csrf=${csrf}`, { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" }, "")],
      ["text/plain", () => send("POST", path, { origin: ORIGIN, "content-type": "text/plain" }, `_csrf=${csrf}`)],
      ["multipart", () => { const f = new FormData(); f.set("_csrf", csrf); return send("POST", path, { origin: ORIGIN }, f); }],
      ...["null", "http://localhost.evil.example", "http://localhost:8080", "https://localhost", "http://evil.example/http://localhost"].map((o): [string, () => Promise<Response>] => [`origin ${o}`, () => send("POST", path, { origin: o, "content-type": "application/x-www-form-urlencoded" }, `_csrf=${csrf}`)]),
      ["referer look-alike", () => send("POST", path, { referer: "http://localhost.evil.example/admin", "content-type": "application/x-www-form-urlencoded" }, `_csrf=${csrf}`)],
    ];
    for (const [what, go] of tries) {
      const res = await go();
      // A GET or HEAD of a path that is also a page shows that page (200), and must change nothing.
      const refused = res.status >= 400 || what.endsWith("override");
      if (!refused || (await auditCount()) !== before) changed.push(`${what} ${path}: ${res.status}`);
    }
  }
  expect(changed).toEqual([]);
  expect((await h.get("/admin/sessions")).status).toBe(200); // logout and revoke-all did not happen
});

test("the same requests with the token in the form from this origin do act (the test can fail)", async () => {
  const before = await auditCount();
  const res = await send("POST", "/admin/sessions/revoke-all", { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" }, `_csrf=${h.login.csrf}`);
  expect(res.status).toBeLessThan(400);
  expect(await auditCount()).toBe(before + 1);
});

test("no `next` sends a browser off the console: the language switch and the login page (logged in; the form is test/admin/login.test.ts)", async () => {
  const tries = ["//evil.example", "/\\evil.example", "/admin/../../evil", "/admin/%2e%2e/%2e%2e//evil", "https://evil.example/admin", "/admin//evil.example", "/admin?x=//evil.example", "/admin/\r\nLocation: //evil.example", " /admin", "/admin@evil.example", "javascript:alert(1)//admin"];
  const away: string[] = [];
  const { cookie } = await h.session(); // the test above logged every session of alice out
  for (const next of tries) {
    const q = encodeURIComponent(next);
    for (const res of [await h.get(`/admin/lang/en?next=${q}`, { cookie }), await h.get(`/admin/login?next=${q}`, { cookie })]) {
      expect(res.status).toBe(303);
      const loc = res.headers.get("location") ?? "";
      const url = new URL(loc, ORIGIN);
      if (url.origin !== ORIGIN || !url.pathname.startsWith("/admin") || loc.startsWith("//") || loc.includes("\\")) away.push(`${next} -> ${loc}`);
    }
  }
  expect(away).toEqual([]);
});

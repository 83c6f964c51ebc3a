// Issue 17: a strict Content-Security-Policy (and the other security headers) on every console
// answer; no inline script, style or event handler in any page (the policy would block them, so
// they would be dead code at best); assets served by content hash for a year; every dynamic text
// escaped: the kitajs XSS scanner over every console template, and names holding <script> shown
// as text.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ASSETS } from "../../src/admin/assets.ts";
import { CONSOLE_POLICY } from "../../src/admin/http.ts";
import { PAGES } from "../../src/admin/pages/index.ts";
import { issueSetupToken } from "../../src/core/admin/setup.ts";
import { startSession } from "../../src/core/admin/sessions.ts";
import { type AdminHarness, adminHarness, loginForm, ORIGIN } from "./support.ts";

let h: AdminHarness;
beforeAll(async () => (h = await adminHarness()));
afterAll(() => h.close());

const EXPECTED_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

function expectHeaders(what: string, res: Response, cache = "no-store") {
  expect({ what, csp: res.headers.get("content-security-policy") }).toEqual({ what, csp: EXPECTED_POLICY });
  expect({ what, frame: res.headers.get("x-frame-options"), referrer: res.headers.get("referrer-policy"), sniff: res.headers.get("x-content-type-options") })
    .toEqual({ what, frame: "DENY", referrer: "same-origin", sniff: "nosniff" });
  expect({ what, cache: res.headers.get("cache-control") }).toEqual({ what, cache });
}

/** Inline code the CSP would block: a <script> without src, style attributes or elements, on* handlers, javascript: URLs. */
function inlineCode(html: string): string[] {
  const found: string[] = [];
  for (const m of html.matchAll(/<script\b[^>]*>/gi)) if (!/\bsrc=/.test(m[0])) found.push(m[0]);
  // Attributes are looked for inside tags only (escaped text such as &lt;img onerror=...&gt; is no tag).
  // Quoted attribute values are text too (a title holding a raw user agent with " onerror=" in it,
  // escaped); an attribute is what stands outside the quotes. javascript: is looked for in values.
  for (const tag of html.matchAll(/<[a-zA-Z][^>]*>/g)) {
    const names = tag[0].replace(/"[^"]*"/g, '""');
    for (const re of [/^<style\b/i, /\sstyle\s*=/i, /\son[a-z]+\s*=/i, /javascript:/i, /\shx-on/i]) {
      const m = (re.source === "javascript:" ? tag[0] : names).match(re);
      if (m) found.push(m[0]);
    }
  }
  return found;
}

describe("headers and inline code", () => {
  test("the policy is the decided one", () => expect(CONSOLE_POLICY).toBe(EXPECTED_POLICY));

  test("every page, redirect, refusal and error carries the policy and the headers; no page has inline code", async () => {
    const token = (await issueSetupToken(h.gw)) ?? "none"; // an operator exists: the setup page says so
    const gets = PAGES.flatMap((p) => p.routes).filter((r) => r.method === "GET").map((r) => r.path.replace(/:lang/, "en").replace(/:[a-z_]+/g, "1"));
    const answers: [string, Response][] = [];
    for (const path of [...gets, "/admin/no-such-page", `/admin/setup?token=${token}`]) {
      answers.push([`GET ${path}`, await h.get(path)]);
      answers.push([`GET ${path} (no session)`, await h.get(path, { cookie: null })]);
    }
    answers.push(["login refused", await h.post("/admin/login", { user: "alice", password: "wrong" }, { cookie: null })]);
    answers.push(["cross-origin", await h.post("/admin/logout", {}, { origin: "https://evil.example" })]);
    answers.push(["no csrf", await h.post("/admin/logout", {}, { csrf: null })]);
    answers.push(["password form 422", await h.post("/admin/sessions/password", { current: "x", password: "y", repeat: "z" })]);
    for (const [what, res] of answers) {
      expectHeaders(what, res);
      if (res.headers.get("content-type")?.startsWith("text/html")) expect({ what, inline: inlineCode(await res.text()) }).toEqual({ what, inline: [] });
    }
  });

  test("the inline-code check finds what it must (it can fail)", () => {
    expect(inlineCode('<script>alert(1)</script><p style="x" onclick="y"><a href="javascript:z">')).toHaveLength(4);
    expect(inlineCode('<script src="/admin/assets/htmx.1.js" defer></script>')).toEqual([]);
  });
});

describe("assets", () => {
  test("every asset a page links is served by its content hash, cached for a year, with its type", async () => {
    const page = await (await h.get("/admin")).text();
    const linked = [...page.matchAll(/(?:src|href)="(\/admin\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(linked.length).toBeGreaterThanOrEqual(3);
    for (const a of ASSETS) {
      const res = await h.get(`/admin/assets/${a.file}`, { cookie: null });
      expect(res.status).toBe(200);
      expectHeaders(a.file, res, "public, max-age=31536000, immutable");
      expect(res.headers.get("content-type")).toBe(a.type);
      const body = await res.text();
      expect(a.file).toContain(createHash("sha256").update(body).digest("hex").slice(0, 10));
    }
    for (const url of linked) expect(ASSETS.map((a) => `/admin/assets/${a.file}`)).toContain(url);
    expect(ASSETS.map((a) => a.name)).toEqual(expect.arrayContaining(["console.css", "console.js", "htmx", "jsqr", "uplot", "uplot.css"]));
  });

  test("an unknown asset is 404 with the headers", async () => {
    const res = await h.get("/admin/assets/htmx.0000000000.js");
    expect(res.status).toBe(404);
    expectHeaders("unknown asset", res);
  });

  test("htmx is configured by <meta> for the policy: no indicator styles, no eval", async () => {
    const page = await (await h.get("/admin")).text();
    const meta = page.match(/<meta name="htmx-config" content="([^"]+)"/)![1]!.replaceAll("&#34;", '"');
    expect(JSON.parse(meta)).toMatchObject({ includeIndicatorStyles: false, allowEval: false, allowScriptTags: false, selfRequestsOnly: true });
  });
});

describe("escaping", () => {
  test("the kitajs XSS scanner finds nothing in any console template", () => {
    const files = (readdirSync("src/admin", { recursive: true }) as string[]).filter((f) => f.endsWith(".tsx")).map((f) => join("src/admin", f));
    expect(files.length).toBeGreaterThanOrEqual(8);
    const p = Bun.spawnSync(["node_modules/.bin/xss-scan", ...files]);
    expect({ code: p.exitCode, out: p.stdout.toString() + p.stderr.toString() }).toEqual({ code: 0, out: expect.stringContaining("No XSS vulnerabilities found") });
  }, 120_000); // the scanner type-checks the whole program: seconds, more on a busy machine

  test("every template names its JSX runtime itself, so xpay runs from a folder without our tsconfig.json (an installed package)", () => {
    const files = (readdirSync("src/admin", { recursive: true }) as string[]).filter((f) => f.endsWith(".tsx"));
    const missing = files.filter((f) => !readFileSync(join("src/admin", f), "utf8").startsWith("/** @jsxImportSource @kitajs/html */\n"));
    expect(missing).toEqual([]);
  });

  test("the scanner fails on an unescaped child (so the test above can fail)", () => {
    // Outside the source tree, so a concurrent scan of src/admin never meets it.
    const dir = mkdtempSync(join(tmpdir(), "xpay-xss-"));
    const probe = join(dir, "probe.tsx");
    writeFileSync(probe, "export const Probe = (p: { name: string }) => <b>{p.name}</b>;\n");
    try {
      expect(Bun.spawnSync(["node_modules/.bin/xss-scan", probe]).exitCode).not.toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  const XSS = "<script>alert(1)</script>";

  test("a user name holding <script> is shown as text on the login page and in the failed-login summary", async () => {
    const res = await loginForm(h, XSS, "wrong password");
    expect(res.status).toBe(401);
    const login = await res.text();
    expect(login).not.toContain(XSS);
    expect(login).toContain('value="&lt;script&gt;alert(1)&lt;/script&gt;"'); // the name is kept in the form, escaped
    const sessions = await (await h.get("/admin/sessions")).text();
    expect(sessions).not.toContain(XSS);
    expect(sessions).toContain("&lt;script&gt;alert(1)&lt;/script&gt;"); // the summary's user name (case folded)
    expect(inlineCode(sessions)).toEqual([]);
  });

  test("a user agent holding markup is shown as text on the sessions page", async () => {
    const ua = '<img src=x onerror="alert(1)">';
    await startSession(h.gw, h.operator, { ip: "203.0.113.9", userAgent: ua });
    const page = await (await h.get("/admin/sessions")).text();
    expect(page).not.toContain(ua);
    expect(page).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(inlineCode(page)).toEqual([]);
  });

  test("a request path holding markup is not echoed into the 404 page", async () => {
    const res = await h.get(`/admin/${encodeURIComponent(XSS)}`);
    expect(await res.text()).not.toContain("<script>alert");
    expect(new URL(`${ORIGIN}/x`).origin).toBe(ORIGIN);
  });
});

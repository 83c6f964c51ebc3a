// Issue 19: the /dev/* routes and the test-mode marks exist only in what `xpay dev` assembles.
// The route tables of both apps, the import graph of `serve`, and the marking of answers.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { seedDevGateway } from "../../src/core/dev/seed.ts";
import { html, json, STATIC_PAGE_POLICY } from "../../src/protocols/http.ts";
import { buildApp } from "../../src/server/app.ts";
import { devInfo } from "../../src/server/dev/info.ts";
import { markPage, markTestMode, policyNonce } from "../../src/server/dev/mark.ts";
import { allowInlineStyle } from "../../src/server/dev/policy.ts";
import { devExtras } from "../../src/server/dev/plugin.ts";
import { harness, type Harness } from "../helpers.ts";
import { createOrder } from "../report/util.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
});
afterEach(() => h.close());

const routesOf = (app: { routes: { method: string; path: string }[] }) => app.routes.map((r) => `${r.method} ${r.path}`);

async function devApp() {
  const setup = await seedDevGateway(h.gw);
  const info = devInfo({ baseUrl: "http://127.0.0.1:8080", database: h.dbPath, temporary: true, keysDir: "/tmp/keys", setup });
  const extras = devExtras(h.gw, () => info);
  const app = buildApp(h.gw, extras.plugins);
  return { app, fetch: async (r: Request) => extras.decorate!(r, await app.handle(r)) };
}

describe("where the /dev routes are", () => {
  test("the app `xpay serve` builds has no /dev route; the one `xpay dev` builds has exactly the four", async () => {
    const served = routesOf(buildApp(h.gw));
    expect(served.filter((r) => r.includes("/dev"))).toEqual([]);
    const dev = routesOf((await devApp()).app);
    expect(dev.filter((r) => !served.includes(r)).sort()).toEqual([
      "GET /dev/", "POST /dev/orders/:trade_no/expire", "POST /dev/orders/:trade_no/fail", "POST /dev/orders/:trade_no/pay",
    ]);
    const res = await buildApp(h.gw).handle(new Request("http://localhost/dev/orders/1/pay", { method: "POST" }));
    expect(res.status).toBe(404);
    expect(res.headers.get("x-xpay-mode")).toBeNull();
  });

  test("nothing `xpay serve` loads imports test mode (src/core/dev, src/server/dev, src/cli/dev*)", async () => {
    const transpiler = new Bun.Transpiler({ loader: "ts" });
    const seen = new Set<string>();
    const visit = async (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      // Type-only imports vanish here, as they do at run time.
      for (const i of transpiler.scanImports(await Bun.file(file).text())) {
        if (!i.path.startsWith(".") || !i.path.endsWith(".ts")) continue;
        await visit(resolve(file, "..", i.path));
      }
    };
    await visit(resolve("src/cli/serve.ts"));
    await visit(resolve("src/server/serve.ts"));
    expect(seen.size).toBeGreaterThan(30);
    expect([...seen].filter((f) => /\/src\/(core|server)\/dev\/|\/src\/cli\/dev/.test(f))).toEqual([]);
  });
});

describe("the marks", () => {
  test("every answer of the dev app carries X-Xpay-Mode: test, errors and redirects included", async () => {
    const { fetch } = await devApp();
    const o = await createOrder(h);
    const requests = [
      new Request("http://localhost/healthz"),
      new Request("http://localhost/nowhere"),
      new Request("http://localhost/api/order/status", { method: "POST", body: "order_id=1" }),
      new Request(`http://localhost/pay/${o.trade_no}`),
      new Request(`http://localhost/dev/orders/${o.trade_no}/pay`, { method: "POST" }),
      new Request("http://localhost/xpay/epay/submit.php?pid=1001"),
    ];
    for (const r of requests) expect(`${r.url} ${(await fetch(r)).headers.get("x-xpay-mode")}`).toBe(`${r.url} test`);
  });

  test("the cashier page: banner after <body>, panel at the end of the card, its script last, all under the page's own nonce", async () => {
    const { fetch } = await devApp();
    const o = await createOrder(h);
    const res = await fetch(new Request(`http://localhost/pay/${o.trade_no}`));
    const policy = res.headers.get("content-security-policy")!;
    const nonce = policyNonce(policy, "script-src")!;
    expect(nonce).toMatch(/^[A-Za-z0-9+/=]{20,}$/);
    const page = await res.text();
    expect(page).toMatch(/<body>\n?<style nonce="[^"]+">/);
    expect(page.indexOf('id="xpay-test-mode"')).toBeLessThan(page.indexOf('id="app"'));
    expect(page).toContain(`<script nonce="${nonce}">`);
    expect(page.indexOf('id="xpay-dev-panel"')).toBeGreaterThan(page.indexOf('id="order-no"'));
    expect(page.indexOf('id="xpay-dev-panel"')).toBeLessThan(page.indexOf("</main>"));
    expect(page.endsWith("</script></body>\n</html>\n")).toBe(true);
    // Every inline script and style carries the nonce: none is blocked by the policy.
    const tags = [...page.matchAll(/<(script|style)(?![^>]*type="application\/json")([^>]*)>/g)];
    for (const t of tags) expect(t[2]).toBe(` nonce="${nonce}"`);
  });

  test("pages under the static policy get a plain style; JSON and bodiless answers are only labelled", async () => {
    const page = await markTestMode(new Request("http://x/"), html("<!doctype html><body class=a><h1>x</h1></body>"));
    const text = await page.text();
    expect(text).toMatch(/^<!doctype html><body class=a><style>[^<]*<\/style><div id="xpay-test-mode"[^>]*>测试模式/);
    expect(page.headers.get("content-security-policy")).toBe(STATIC_PAGE_POLICY);
    const api = await markTestMode(new Request("http://x/"), json({ a: 1 }, 409));
    expect([api.status, await api.text(), api.headers.get("x-xpay-mode")]).toEqual([409, '{"a":1}', "test"]);
    const moved = await markTestMode(new Request("http://x/"), new Response(null, { status: 302, headers: { location: "/pay/1" } }));
    expect([moved.status, moved.headers.get("location"), moved.headers.get("x-xpay-mode")]).toEqual([302, "/pay/1", "test"]);
    expect(markPage("no body tag here", null, null)).toBe("no body tag here");
    expect(policyNonce("default-src 'none'; style-src 'nonce-abc=='", "style-src")).toBe("abc==");
    expect(policyNonce(STATIC_PAGE_POLICY, "style-src")).toBeNull();
  });

  test("the banner's style is allowed under each page's own policy, and nothing else in it changes", () => {
    const n = () => "N0";
    // The console's policy: its own stylesheets and now the banner's nonce.
    const console = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; form-action 'self'";
    expect(allowInlineStyle(console, n)).toEqual({ policy: console.replace("style-src 'self'", "style-src 'self' 'nonce-N0'"), nonce: "N0" });
    expect(allowInlineStyle("default-src 'self'; img-src *", n)).toEqual({ policy: "default-src 'self'; img-src *; style-src 'self' 'nonce-N0'", nonce: "N0" });
    expect(allowInlineStyle("default-src 'none'", n)).toEqual({ policy: "default-src 'none'; style-src 'nonce-N0'", nonce: "N0" });
    expect(allowInlineStyle("script-src 'none'", n)).toEqual({ policy: "script-src 'none'", nonce: null });
    expect(allowInlineStyle(STATIC_PAGE_POLICY, n)).toEqual({ policy: STATIC_PAGE_POLICY, nonce: null }); // 'unsafe-inline' stays in force
    expect(allowInlineStyle("style-src 'nonce-abc'; script-src 'nonce-abc'", n)).toEqual({ policy: "style-src 'nonce-abc'; script-src 'nonce-abc'", nonce: "abc" });
    expect(allowInlineStyle("style-src 'self'; style-src-elem 'self'", n).policy).toBe("style-src 'self'; style-src-elem 'self' 'nonce-N0'");
    expect(allowInlineStyle(null, n)).toEqual({ policy: null, nonce: null });
  });

  test("a page under a 'self' style policy (like the console's) gets the banner with a nonce its policy now names", async () => {
    const page = new Response("<!doctype html><html><body><h1>x</h1></body></html>", {
      headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": "default-src 'none'; style-src 'self'" },
    });
    const marked = await markTestMode(new Request("http://x/admin"), page);
    const nonce = policyNonce(marked.headers.get("content-security-policy"), "style-src")!;
    expect(marked.headers.get("content-security-policy")).toBe(`default-src 'none'; style-src 'self' 'nonce-${nonce}'`);
    expect(await marked.text()).toContain(`<body><style nonce="${nonce}">`);
  });

  test("GET /dev answers the setup; /dev/.../pay takes pay_type from the query or the body", async () => {
    const { fetch } = await devApp();
    const info = (await (await fetch(new Request("http://localhost/dev/"))).json()) as { mode: string; app_secret: string; endpoints: Record<string, string> };
    expect(info).toMatchObject({ mode: "test", app_secret: "a1b2c3d4e5f60718293a4b5c6d7e8f90" });
    expect(info.endpoints.dev_pay).toBe("http://127.0.0.1:8080/dev/orders/{trade_no}/pay");
    const bad = await fetch(new Request("http://localhost/dev/orders/1/pay", { method: "POST", body: "pay_type=a&pay_type=b", headers: { "content-type": "application/x-www-form-urlencoded" } }));
    expect(bad.status).toBe(400);
    const weird = await fetch(new Request("http://localhost/dev/orders/..%2F..%2Fx/pay", { method: "POST" }));
    expect(weird.status).toBe(404);
  });
});

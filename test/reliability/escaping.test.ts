// The cashier escapes every merchant-provided string: the /pay page's HTML, the template API's
// JSON (served as JSON, never sniffable as HTML), and the HTML error pages that echo input.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { v1Params } from "../epay-v1/sdk.ts";
import { type Harness, harness, nativeCreate, seed } from "../helpers.ts";

const HOSTILE = [
  `</title><script>alert(1)</script>`,
  `"><img src=x onerror=alert(1)>`,
  `'-alert(1)-'`,
  `{{constructor.constructor('alert(1)')()}}`,
  `<svg/onload=alert(1)>&amp;`,
];
const RAW = [/<script>alert/i, /<img src=x/i, /<svg\/onload/i, /<\/title><script/i];

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
  await h.gw.store.setSetting("max_offset", "100");
});
afterEach(() => h.close());

const post = (path: string, body: Record<string, string>) =>
  h.app.handle(new Request(`http://localhost${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));

test("hostile subject and param: /pay page HTML escaped, template API JSON only", async () => {
  let checked = 0;
  for (const [i, evil] of HOSTILE.entries()) {
    const created = (await (await post("/xpay/order/create", nativeCreate({ name: evil, param: evil, out_trade_no: `X${i}`, return_url: "https://shop.example/r" }))).json()) as any;
    expect(created.code).toBe(200);
    const page = await h.app.handle(new Request(`http://localhost/pay/${created.data.trade_no}`));
    const text = await page.text();
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.headers.get("content-security-policy")).toContain("script-src 'nonce-");
    for (const re of RAW) expect([evil, re.test(text)]).toEqual([evil, false]);
    if (evil.includes("<")) expect(text).toContain("&lt;"); // the subject is there, escaped (page title)
    for (const route of ["info", "status", "qrcode"]) {
      const res = await post(`/api/order/${route}`, { order_id: created.data.trade_no });
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(res.status).toBe(200);
      expect(res.headers.get("x-content-type-options") ?? "nosniff").toBe("nosniff");
      const body = (await res.json()) as any; // success answers are the bare object of the spec
      if (route === "info") expect(JSON.stringify(body)).toContain(JSON.stringify(evil).slice(1, -1)); // as given; the page uses textContent
      checked++;
    }
  }
  // The page script never turns data into markup.
  const js = readFileSync(join(import.meta.dir, "../../src/server/cashier/cashier.js"), "utf8");
  expect(js).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
  expect(checked).toBe(HOSTILE.length * 3);
});

test("HTML error pages (submit.php, V2 submit, create-page) never echo input as markup", async () => {
  for (const evil of HOSTILE) {
    const pages = [
      new Request(`http://localhost/xpay/epay/submit.php?${new URLSearchParams({ ...v1Params({ name: evil }), sign: "bad" })}`),
      new Request(`http://localhost/xpay/epay/submit.php?${new URLSearchParams({ pid: evil, name: evil })}`),
      new Request(`http://localhost/xpay/epay/submit.php?${new URLSearchParams(v1Params({ money: evil }))}`),
      new Request(`http://localhost/xpay/epayn/api/pay/submit?${new URLSearchParams({ pid: "1001", name: evil, money: evil, sign: evil })}`),
      new Request("http://localhost/xpay/order/create-page", { method: "POST", body: new URLSearchParams(nativeCreate({ money: evil, name: evil })) }),
      new Request("http://localhost/xpay/order/create-page", { method: "POST", body: new URLSearchParams(nativeCreate({ notify_url: evil })) }),
    ];
    for (const req of pages) {
      const res = await h.app.handle(req);
      const text = await res.text();
      expect(res.status).toBeLessThan(500);
      for (const re of RAW) expect([req.url, evil, re.test(text)]).toEqual([req.url, evil, false]);
    }
  }
});

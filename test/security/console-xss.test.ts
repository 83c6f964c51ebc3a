// Issue 17 attacker review: every string a merchant (order fields, its notify answer, failed
// creations with an unknown pay type) or a phone (report text, client name) controls, and every
// query a link can carry, is shown on each console page as text: markup never reaches a page
// as markup, in text or attribute context, in full pages or htmx fragments.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { deliverDue } from "../../src/core/notify/deliver.ts";
import { PAGES } from "../../src/admin/pages/index.ts";
import { seed } from "../helpers.ts";
import { startReceiver } from "../notify/receiver.ts";
import { amountReport, createOrder, report, smsContent } from "../report/util.ts";
import { type AdminHarness, adminHarness } from "../admin/support.ts";
import { nativeCreate, postJson } from "../helpers.ts";

const X = `x"'><img src=x onerror=alert(1)><script>alert(1)</script>`;
/** Markup of the payload as markup: a live tag, or an attribute the quote let out. */
const live = (html: string) => [/<img src=x/i, /<svg\/onload/i, /<script>alert/i, /"\s*onerror=/i, /'\s*onerror=/i].filter((re) => re.test(html)).map(String);

let h: AdminHarness;
const rx = startReceiver([`<script>alert(1)</script>${X}`]);
let tradeNo = "";
beforeAll(async () => {
  h = await adminHarness();
  await seed(h);
  const o = await createOrder(h, { name: X, param: X, notify_url: `${rx.url}?a=${encodeURIComponent(X)}`, return_url: `https://shop.example/r?x=${encodeURIComponent(X)}` });
  tradeNo = o.trade_no;
  await amountReport(h, 1000);
  await deliverDue(h.gw);
  await rx.waitFor(1);
  // Within each field's own limits (out_trade_no: printable ASCII without spaces; pay_type 20; device 16).
  const S = `"><svg/onload=alert(1)>`;
  for (const o of [{ out_trade_no: S }, { pay_type: "<svg/onload=alert()>" }, { device: "<svg/onload=x()>" }, { clientip: X, buyer: X, name: X, param: X }]) {
    expect((await postJson(h, "/xpay/order/create", nativeCreate(o))).res.status).toBeLessThan(500);
  }
  await report(h, "/1001", { from: X, content: smsContent(X, `${X}你已成功收款10.00元`) }); // a phone's message
  await report(h, "/1001", { from: "p", content: `${X}{not json` });
  await report(h, "/1001/heart", { client_name: X, ext_data: JSON.stringify({ x: X }) }); // a phone's name
  await amountReport(h, 4321, { remark: X, coll_user: X, pay_user: X, uid: X, order_id: S, out_order_id: S });
  await amountReport(h, 1000, { remark: X }); // a second payment of a paid amount: refused, shown
});
afterAll(() => (rx.stop(), h.close()));

async function ids() {
  const reports = await h.gw.store.browse.reportsForOrder(tradeNo, 10);
  return { trade_no: tradeNo, id: String(reports[0]?.id ?? 1), pid: "1001", lang: "en" };
}

test("no page shows a merchant's or a phone's markup as markup", async () => {
  const id = await ids();
  const paths = PAGES.flatMap((p) => p.routes).filter((r) => r.method === "GET").map((r) => r.path.replace(/:([a-z_]+)/g, (_, k: string) => (id as Record<string, string>)[k] ?? "1"));
  const more = [1, 2, 3, 4, 5].flatMap((n) => [`/admin/reports/${n}`, `/admin/clients/${n}`, `/admin/clients/${n}/reports`]);
  const q = encodeURIComponent(X);
  const queries = [`/admin/orders?q=${q}&pid=${q}&status=${q}&from=${q}`, `/admin/reports?kind=${q}&outcome=${q}`, `/admin/audit?user=${q}&action=${q}`, `/admin/orders/${tradeNo}?done=${q}`, `/admin/reports/1?done=${q}`, `/admin/accounts?done=${q}&id=${q}`, `/admin/settings?saved=${q}`, `/admin/clients/setup?pid=${q}`, `/admin/login?next=${q}`];
  const found: Record<string, string[]> = {};
  let pages = 0;
  const shown = new Set<string>();
  for (const path of [...paths, ...more, ...queries]) {
    for (const htmx of [false, true]) {
      const res = await h.get(path, { headers: htmx ? { "hx-request": "true" } : {} });
      if (!(res.headers.get("content-type") ?? "").includes("html")) continue;
      const html = await res.text();
      pages++;
      if (html.includes("&lt;img src=x") || html.includes("&lt;svg/onload")) shown.add(path.split("?")[0]!);
      const bad = live(html);
      if (bad.length > 0) found[`${htmx ? "htmx " : ""}${path}`] = bad;
    }
  }
  expect(pages).toBeGreaterThan(40);
  expect(found).toEqual({});
  // The payloads did reach the pages (as text): the sweep looked at them.
  for (const page of ["/admin", "/admin/orders", `/admin/orders/${tradeNo}`, "/admin/reports", "/admin/clients", "/admin/clients/1"]) expect([...shown]).toContain(page);
});

test("the check finds a live payload (it can fail)", () => {
  expect(live(`<p>${X}</p>`)).toContain("/<img src=x/i");
  expect(live(`<p>${Bun.escapeHTML(X)}</p>`)).toEqual([]);
});

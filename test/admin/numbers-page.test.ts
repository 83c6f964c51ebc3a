// Issue 28 item 5 on real pages: an amount over a thousand yuan paid through the routes reads
// grouped on the dashboard card, the chart's table, the orders list and the order page, in both
// languages; the chart data carries the page's large-number units for dashboard.js.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { LANG_COOKIE } from "../../src/admin/i18n/index.ts";
import { parseYuan } from "../../src/core/money.ts";
import { seed } from "../helpers.ts";
import { amountReport, createOrder } from "../report/util.ts";
import { type AdminHarness, adminHarness } from "./support.ts";

let h: AdminHarness;
beforeEach(async () => (h = await adminHarness()));
afterEach(() => h.close());

const get = async (path: string, lang?: string) => {
  const res = await h.get(path, { cookie: lang ? `${h.login.cookie}; ${LANG_COOKIE}=${lang}` : h.login.cookie });
  expect(res.status).toBe(200);
  return res.text();
};

test("a payment of 2,345.67 yuan reads grouped on the dashboard, the orders list and the order page", async () => {
  await seed(h);
  const order = await createOrder(h, { money: "2345.67" });
  const r = await amountReport(h, parseYuan(order.trade_amount)!);
  expect(r.body.data.outcome).toBe("matched");
  const shown = `${order.trade_amount.slice(0, -6)},${order.trade_amount.slice(-6)}`; // "2,345.67" (or a cent below)
  for (const lang of ["zh", "en"]) {
    const dash = await get("/admin", lang);
    expect(dash).toContain(`<span class="dash-value">${shown}</span>`);
    expect(dash).toContain(`<td class="num">${shown}</td>`);
    const chart = JSON.parse(dash.match(/data-chart="([^"]+)"/)![1]!.replaceAll("&quot;", '"').replaceAll("&amp;", "&"));
    expect(chart.wan).toBe(lang === "zh" ? "万" : "");
    const list = await get("/admin/orders", lang);
    expect(list).toContain(`¥${shown}`);
    expect(list).toContain("¥2,345.67");
    const one = await get(`/admin/orders/${order.trade_no}`, lang);
    expect(one).toContain("¥2,345.67");
  }
});

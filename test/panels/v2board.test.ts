// v2board's EPay plugin against xpay, unchanged: its submit.php link (no `type`, money as a PHP
// float, name = order number) -> the payer's pick on the cashier -> payment -> the notification at
// the panel's notify route, checked by EPay::notify() -> api.php. Before xpay offered the pick, the
// link was answered 400 and the buyer was stuck.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { returnUri } from "../../src/core/pay-order.ts";
import { BASE, type Harness, SECRET } from "../helpers.ts";
import { apiOrder, cashier, EPAY_URL, follow, panelGateway, payAndDeliver } from "./flow.ts";
import { v2boardNotify, v2boardPayUrl } from "./panels.ts";
import { laravelInput, phpGet, plainPhpVerify } from "./php.ts";
import { type PanelSite, startPanelSite } from "./site.ts";

let h: Harness;
let site: PanelSite;
const config = { url: EPAY_URL, pid: "1001", key: SECRET };
const NOTIFY_PATH = "/api/v1/guest/payment/notify/EPay/5f2a9c";

beforeEach(async () => {
  h = await panelGateway();
  // PaymentController::notify: $request->input() (query and body merged), die('success') or abort(500).
  site = startPanelSite((r) => {
    if (r.path !== NOTIFY_PATH) return { status: 404, body: "not found" };
    const input = { ...phpGet(r.query), ...phpGet(r.body) };
    return v2boardNotify(input, SECRET) ? { body: "success" } : { status: 500, body: "verify error" };
  });
});
afterEach(() => {
  site.stop();
  h.close();
});

describe("v2board EPay", () => {
  for (const [cents, money] of [[1000, "10"], [1250, "12.5"], [1999, "19.99"]] as const) {
    test(`link with money ${money}: pick, pay, notification verified by EPay::notify(), api.php paid`, async () => {
      const tradeNo = `2025112512${String(cents).padStart(10, "0")}`;
      const link = v2boardPayUrl(config, { trade_no: tradeNo, total_amount: cents, notify_url: site.origin + NOTIFY_PATH, return_url: `https://v2.example/#/order/${tradeNo}` });
      expect(link).toContain(`money=${money}&`);
      expect(new URL(link).searchParams.has("type")).toBe(false);

      const order = await follow(h, link);
      expect(await apiOrder(h, tradeNo)).toMatchObject({ code: 1, trade_no: order, status: 1, type: "", money: (cents / 100).toFixed(2) });
      const types = await cashier(h, "pay-types", { order_id: order });
      expect(types.body.data.map((t: any) => t.pay_type)).toEqual(["alipay", "wxpay"]);
      expect((await cashier(h, "pay-type", { order_id: order, pay_type: "wxpay" })).status).toBe(200);
      expect(await apiOrder(h, tradeNo)).toMatchObject({ code: 1, status: 1, type: "wxpay" });
      expect(await follow(h, link)).toBe(order); // the buyer clicks "pay" again in the panel

      await payAndDeliver(h, order);
      await site.waitFor(1);
      const hit = site.hits[0]!;
      expect(hit).toMatchObject({ method: "GET", status: 200, answer: "success" });
      expect(phpGet(hit.query)).toMatchObject({ out_trade_no: tradeNo, trade_no: order, type: "wxpay", money: (cents / 100).toFixed(2), trade_status: "TRADE_SUCCESS" });
      expect(plainPhpVerify(hit.query, SECRET)).toBe(true); // and without Laravel in between
      expect((await h.gw.store.getNotification(order))?.status).toBe("delivered");
      expect(await apiOrder(h, tradeNo)).toMatchObject({ code: 1, status: 2 });

      // The return link: the signed fields before the SPA's #/order/NO, so both the server and the route see theirs.
      const back = (await returnUri(h.gw, (await h.gw.store.getOrder(order))!))!;
      expect(back).toStartWith("https://v2.example/?");
      expect(back).toEndWith(`#/order/${tradeNo}`);
      const query = back.slice(back.indexOf("?") + 1, back.indexOf("#"));
      expect(plainPhpVerify(query, SECRET)).toBe(true);
      expect(v2boardNotify(laravelInput(phpGet(query)), SECRET)).toEqual({ trade_no: tradeNo, callback_no: order });
    });
  }

  test("the panel's check refuses a notification signed with another key", async () => {
    const link = v2boardPayUrl({ ...config }, { trade_no: "2025112599", total_amount: 500, notify_url: site.origin + NOTIFY_PATH, return_url: `${BASE}/r` });
    const order = await follow(h, link);
    await cashier(h, "pay-type", { order_id: order, pay_type: "alipay" });
    await h.gw.store.updateMerchant(1001, { secret: "f".repeat(32) });
    await payAndDeliver(h, order);
    await site.waitFor(1);
    expect(site.hits[0]).toMatchObject({ status: 500, answer: "verify error" });
    expect((await h.gw.store.getNotification(order))?.status).not.toBe("delivered");
  });
});

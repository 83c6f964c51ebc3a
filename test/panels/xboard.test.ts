// Xboard's Epay plugin against xpay, unchanged: its submit.php link always carries clientip and
// device, and `type` only when the operator filled 支付类型. Without it the payer picks on the
// cashier (before: HTTP 400); with it the cashier opens on that type. The notification is checked
// by Plugin::notify() behind Laravel's middleware.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { type Harness, SECRET } from "../helpers.ts";
import { apiOrder, cashier, EPAY_URL, follow, panelGateway, payAndDeliver } from "./flow.ts";
import { v2boardNotify as xboardNotify, xboardPayUrl } from "./panels.ts";
import { phpGet, plainPhpVerify } from "./php.ts";
import { type PanelSite, startPanelSite } from "./site.ts";

let h: Harness;
let site: PanelSite;
const NOTIFY_PATH = "/api/v1/guest/payment/notify/EPay/8c1d7e";
const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";
const DESKTOP = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120 Safari/537.36";

beforeEach(async () => {
  h = await panelGateway();
  // PaymentController::notify: 'success', or fail([422, 'verify error']).
  site = startPanelSite((r) => {
    if (r.path !== NOTIFY_PATH) return { status: 404, body: "not found" };
    return xboardNotify({ ...phpGet(r.query), ...phpGet(r.body) }, SECRET) ? { body: "success" } : { status: 422, body: '{"status":"fail","message":"verify error"}' };
  });
});
afterEach(() => {
  site.stop();
  h.close();
});

const order = (tradeNo: string, cents: number) => ({ trade_no: tradeNo, total_amount: cents, notify_url: site.origin + NOTIFY_PATH, return_url: `https://xboard.example/#/order/${tradeNo}` });

describe("Xboard Epay plugin", () => {
  test("支付类型 left empty: no type, clientip and device signed; the payer picks; notification verified", async () => {
    const link = xboardPayUrl({ url: EPAY_URL, pid: "1001", key: SECRET }, order("2025112501", 1250), { ip: "203.0.113.7", userAgent: PHONE });
    const sent = new URL(link).searchParams;
    expect(sent.has("type")).toBe(false);
    expect(sent.get("money")).toBe("12.5");
    expect(sent.get("clientip")).toBe("203.0.113.7");
    expect(sent.get("device")).toBe("mobile");

    const tradeNo = await follow(h, link);
    const stored = (await h.gw.store.getOrder(tradeNo))!;
    expect(stored).toMatchObject({ payType: "", amount: 1250, clientip: "203.0.113.7", device: "mobile", name: "2025112501" });
    expect(await apiOrder(h, "2025112501")).toMatchObject({ code: 1, status: 1, type: "" });
    expect((await cashier(h, "pay-type", { order_id: tradeNo, pay_type: "alipay" })).status).toBe(200);
    expect((await cashier(h, "pay-type", { order_id: tradeNo, pay_type: "alipay" })).status).toBe(200); // a double tap
    expect(await follow(h, link)).toBe(tradeNo);

    await payAndDeliver(h, tradeNo);
    await site.waitFor(1);
    expect(site.hits[0]).toMatchObject({ method: "GET", status: 200, answer: "success" });
    expect(plainPhpVerify(site.hits[0]!.query, SECRET)).toBe(true);
    expect(await apiOrder(h, "2025112501")).toMatchObject({ code: 1, status: 2, type: "alipay" });
    expect((await h.gw.store.listOrders({ pid: 1001, limit: 10, offset: 0 })).length).toBe(1);
  });

  test("支付类型 = wxpay: the cashier opens on WeChat with no pick; money 10", async () => {
    const link = xboardPayUrl({ url: EPAY_URL, pid: "1001", key: SECRET, type: "wxpay" }, order("2025112502", 1000), { ip: "198.51.100.4", userAgent: DESKTOP });
    expect(new URL(link).searchParams.get("type")).toBe("wxpay");
    expect(new URL(link).searchParams.get("money")).toBe("10");
    expect(new URL(link).searchParams.get("device")).toBe("pc");
    const tradeNo = await follow(h, link);
    expect((await cashier(h, "info", { order_id: tradeNo })).body).toMatchObject({ pay_type: "wxpay", trade_amount: 1000 });
    await payAndDeliver(h, tradeNo);
    await site.waitFor(1);
    expect(site.hits[0]).toMatchObject({ status: 200, answer: "success" });
    expect(phpGet(site.hits[0]!.query)).toMatchObject({ type: "wxpay", money: "10.00", out_trade_no: "2025112502" });
    expect(await apiOrder(h, "2025112502")).toMatchObject({ code: 1, status: 2 });
  });
});

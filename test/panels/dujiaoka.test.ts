// dujiaoka's Yipay driver against xpay, unchanged: the auto-submitted GET form (type present,
// money a float cast, sign over the non-empty values) to the pay row's full submit.php URL, and
// its notify route (GET only) that verifies the same way and then compares the money with the
// order's price at two decimals (bccomp), answering HTTP 500 when they differ or when the order
// is already completed.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { type Harness, SECRET } from "../helpers.ts";
import { apiOrder, cashier, EPAY_URL, follow, panelGateway, payAndDeliver } from "./flow.ts";
import { dujiaokaFormUrl, dujiaokaNotify, type YipayRow } from "./panels.ts";
import { phpGet, plainPhpVerify } from "./php.ts";
import { type PanelSite, startPanelSite } from "./site.ts";

let h: Harness;
let site: PanelSite;
const row: YipayRow = { merchant_id: "1001", merchant_pem: SECRET, merchant_key: `${EPAY_URL}/submit.php` };
const orders = new Map<string, { actual_price: string; completed: boolean }>();

beforeEach(async () => {
  h = await panelGateway();
  orders.clear();
  site = startPanelSite((r) => {
    if (r.path !== "/pay/yipay/notify_url") return { status: 404, body: "not found" };
    const o = orders.get(phpGet(r.query).out_trade_no ?? "");
    if (!o) return { body: "fail" };
    return dujiaokaNotify(r.method, r.query, row.merchant_pem, o);
  });
});
afterEach(() => {
  site.stop();
  h.close();
});

describe("dujiaoka Yipay", () => {
  for (const [price, money, payway] of [["10.00", "10", "alipay"], ["12.50", "12.5", "wxpay"]] as const) {
    test(`form with money ${money} (${payway}): cashier, payment, notify accepted by its sign and bccomp check`, async () => {
      const sn = `DJK${price.replace(".", "")}`;
      orders.set(sn, { actual_price: price, completed: false });
      const link = dujiaokaFormUrl(row, payway, { order_sn: sn, title: "ChatGPT 会员 月卡x1", actual_price: price }, {
        return_url: `${site.origin}/detail-order-sn/${sn}`, notify_url: `${site.origin}/pay/yipay/notify_url`,
      });
      expect(new URL(link).searchParams.get("money")).toBe(money);

      const tradeNo = await follow(h, link);
      expect((await cashier(h, "info", { order_id: tradeNo })).body).toMatchObject({ pay_type: payway, subject: "ChatGPT 会员 月卡x1" });
      expect(await follow(h, link)).toBe(tradeNo); // the buyer goes back and submits again
      await payAndDeliver(h, tradeNo);
      await site.waitFor(1);
      const hit = site.hits[0]!;
      expect(hit).toMatchObject({ method: "GET", status: 200, answer: "success" });
      expect(phpGet(hit.query)).toMatchObject({ out_trade_no: sn, money: price, type: payway, name: "ChatGPT 会员 月卡x1" });
      expect(plainPhpVerify(hit.query, SECRET)).toBe(true);
      expect(orders.get(sn)!.completed).toBe(true);
      expect(await apiOrder(h, sn)).toMatchObject({ code: 1, status: 2, money: price });
      expect(site.hits.length).toBe(1); // acknowledged: no second notification, which dujiaoka would answer with 500
    });
  }

  test("its checks are real: a POST is 405, a money that differs is 500, a wrong sign is fail", async () => {
    orders.set("DJK-X", { actual_price: "10.00", completed: false });
    const link = dujiaokaFormUrl(row, "alipay", { order_sn: "DJK-X", title: "t", actual_price: "10.00" }, { return_url: `${site.origin}/r`, notify_url: `${site.origin}/pay/yipay/notify_url` });
    const tradeNo = await follow(h, link);
    await payAndDeliver(h, tradeNo);
    await site.waitFor(1);
    const query = site.hits[0]!.query;
    expect(dujiaokaNotify("POST", query, SECRET, { actual_price: "10.00", completed: false }).status).toBe(405);
    expect(dujiaokaNotify("GET", query, SECRET, { actual_price: "9.99", completed: false }).status).toBe(500);
    expect(dujiaokaNotify("GET", query.replace(/money=[^&]*/, "money=0.01"), SECRET, { actual_price: "0.01", completed: false }).body).toBe("fail");
  });
});

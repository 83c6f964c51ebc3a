// Issue 14, item 2 through the real report API on a temp database: a chat, group, friend-request or
// forwarded notification that quotes the payment wording with the order's payable amount is stored
// as "not a payment" (200, so the phone stops resending) and pays nothing; the genuine notice of
// the same amount then pays the order.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { ALIPAY, asForwarded, GENUINE, type Notice, QQ, SPOOFS, WECHAT } from "../fixtures/notifications.ts";
import { harness, type Harness, seed } from "../helpers.ts";
import { createOrder, report } from "./util.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
  for (const payType of ["wxpay", "qqpay"]) {
    await h.gw.store.addChannel({ pid: 1001, payType, code: `${payType}_qr`, name: payType, qrcode: `https://example.com/${payType}`, now: h.clock.now() });
  }
});
afterEach(() => h.close());

const send = (n: Notice) => report(h, "/1001", { from: "shop-phone", content: JSON.stringify(asForwarded(n)) });
const statusOf = async (tradeNo: string) => (await h.gw.store.getOrder(tradeNo))?.status;

describe("spoofed notifications on the report API", () => {
  test("every spoof of the corpus is stored as not a payment and leaves the 13.22 orders pending", async () => {
    const orders = {
      [WECHAT]: await createOrder(h, { pay_type: "wxpay", money: "13.22" }),
      [ALIPAY]: await createOrder(h, { pay_type: "alipay", money: "13.22" }),
      [QQ]: await createOrder(h, { pay_type: "qqpay", money: "13.22" }),
    };
    for (const o of Object.values(orders)) expect(o.trade_amount).toBe("13.22");

    for (const n of SPOOFS) {
      const r = await send(n);
      expect({ spoof: n.name, status: r.status, code: r.body.code, outcome: r.body.data?.outcome }).toEqual({ spoof: n.name, status: 200, code: 200, outcome: "unmatched" });
      expect(r.body.data.trade_no).toBe("");
    }
    for (const o of Object.values(orders)) expect(await statusOf(o.trade_no)).toBe(1);

    const stored = await h.gw.store.listReports({ pid: 1001, limit: 1000 });
    expect(stored.length).toBe(SPOOFS.length);
    for (const s of stored) {
      expect(s).toMatchObject({ kind: "message", outcome: "unmatched", amount: null, tradeNo: null });
      expect(s.reason).toStartWith("not a payment message: ");
    }
    const reasons = stored.map((s) => s.reason);
    expect(reasons.some((r) => r.includes("the title is not one of this app's payment senders"))).toBe(true);
    expect(reasons.some((r) => r.includes("other text around it"))).toBe(true);

    // The genuine notices of each app then pay their order.
    for (const [pkg, o] of Object.entries(orders)) {
      const genuine = GENUINE.find((n) => n.pkg === pkg)!;
      const r = await send(genuine);
      expect(r.body.data).toMatchObject({ outcome: "matched", trade_no: o.trade_no });
      expect(await statusOf(o.trade_no)).toBe(2);
    }
  });

  test("the issue's group message does not pay, the WeChat Pay notice of the same amount does", async () => {
    const o = await createOrder(h, { pay_type: "wxpay", money: "13.22" });
    const group = await send({ name: "", pkg: WECHAT, title: "某某交流群", text: "[3条]张三: 收款码到账¥13.22" });
    expect(group.status).toBe(200);
    expect(group.body.data.outcome).toBe("unmatched");
    expect(group.body.message).toContain("not a payment");
    const nick = await send({ name: "", pkg: WECHAT, title: "微信支付", text: "收款码到账¥13.22" });
    expect(nick.body.data.outcome).toBe("unmatched");
    expect(await statusOf(o.trade_no)).toBe(1);

    const paid = await send({ name: "", pkg: WECHAT, title: "微信支付", text: "[2条]微信支付: 个人收款码到账¥13.22" });
    expect(paid.body.data).toMatchObject({ outcome: "matched", trade_no: o.trade_no });
    expect(await statusOf(o.trade_no)).toBe(2);
  });
});

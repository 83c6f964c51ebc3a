// V免签 end to end, driven exactly as its two callers do: the monitor app (13-digit t, Java double
// price text, nothing URL-encoded, a re-sent push with force_push=true) and dujiaoka's Vpay driver
// (createOrder with price=10 and isHtml=1, then its notify handler's md5 check at a real
// 127.0.0.1 receiver). The orders are ordinary xpay orders: cashier page, template API,
// order list and simulate-pay all see them.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { deliverDue } from "../../src/core/notify/deliver.ts";
import { settleOperatorPayment } from "../../src/core/settle-report.ts";
import { BASE, type Harness, harness } from "../helpers.ts";
import { type Receiver, startReceiver } from "../notify/receiver.ts";
import { appHeartUrl, appPushUrl, dujiaokaAccepts, dujiaokaCreateUrl, get, KEY, md5, seedVmq, vmqUrls } from "./clients.ts";

let h: Harness;
let rx: Receiver;
beforeEach(async () => {
  h = harness();
  await seedVmq(h);
});
afterEach(() => {
  rx?.stop();
  h.close();
});

const t = () => String(h.clock.nowMs());

async function dujiaokaOrder(orderSn: string, actualPrice: number, type: 1 | 2 = 2): Promise<string> {
  const r = await get(h, dujiaokaCreateUrl("http://localhost/", { orderSn, actualPrice, type, notifyUrl: rx.url }));
  expect(r.status).toBe(302);
  const location = r.res.headers.get("location")!;
  expect(location).toMatch(new RegExp(`^${BASE}/pay/\\d{20}$`));
  return location.slice(-20);
}

test("the app's heartbeat, dujiaoka's createOrder, the app's push, the notification dujiaoka accepts", async () => {
  rx = startReceiver(["fail", "success"]);
  await vmqUrls(h, { notifyUrl: rx.url });

  // The app's heartbeat: the client goes online (client list, require_online_client).
  await h.gw.store.setSetting("require_online_client", "1");
  const heart = await get(h, appHeartUrl(t()));
  expect(heart.body).toEqual({ code: 1, msg: "成功", data: null });
  const listed = (await h.gw.store.listClients()).find((c) => c.kind === "vmq")!;
  expect(listed).toMatchObject({ pid: 1001, name: "phone1", lastSeenAt: h.clock.now() });

  // Two shop orders of 10.00: unique payable amounts 10.00 and 9.99 on the Alipay account.
  const first = await dujiaokaOrder("DJK-A1", 10);
  const second = await dujiaokaOrder("DJK-A2", 10);
  const a = (await get(h, `http://localhost/getOrder?orderId=${first}`)).body;
  const b = (await get(h, `http://localhost/getOrder?orderId=${second}`)).body;
  expect(a).toMatchObject({ code: 1, msg: "成功", data: { orderId: first, payType: 2, price: "10", reallyPrice: "10.00", payUrl: "https://qr.alipay.com/fkx0001", isAuto: 1, state: 0, timeOut: 15 } });
  expect(b.data.reallyPrice).toBe("9.99");
  expect((await get(h, `http://localhost/checkOrder?orderId=${second}`)).body).toEqual({ code: -1, msg: "订单未支付", data: null });

  // The app reads 9.99 off Alipay's notification and pushes it; its fork re-sends with force_push.
  const push = appPushUrl(t(), 2, 9.99);
  expect(push).toContain("&price=9.99&");
  const paid = await get(h, push);
  expect(paid.body).toMatchObject({ code: 1, msg: "成功", data: { outcome: "matched", orderId: second } });
  const again = await get(h, `${push}&force_push=true`);
  expect(again.body).toMatchObject({ code: 1, data: { outcome: "duplicate", orderId: "" } });
  expect((await h.gw.store.getOrder(second))!.status).toBe(2);
  expect((await h.gw.store.getOrder(first))!.status).toBe(1);

  // Java writes 10.00 as "10.0": the first order.
  expect((await get(h, appPushUrl(t(), 2, 10))).body.data).toMatchObject({ outcome: "matched", orderId: first });

  // Delivery: GET notifyUrl; "fail" is no acknowledgement, the retry 15 s later is.
  await deliverDue(h.gw);
  await rx.waitFor(2);
  h.clock.advance(15);
  await deliverDue(h.gw);
  await rx.waitFor(3);
  for (const n of rx.received) {
    expect(n.method).toBe("GET");
    expect(dujiaokaAccepts(n.params)).toBe(true);
    expect(n.params.price).toBe("10"); // the text dujiaoka sent and credits
  }
  const toSecond = rx.received.filter((n) => n.params.param === "DJK-A2");
  expect(toSecond[0]!.params).toMatchObject({ param: "DJK-A2", type: "2", price: "10", reallyPrice: "9.99" });
  expect((await h.gw.store.getNotification(second))!.status).toBe("delivered");

  // checkOrder: the return URL, signed the same way with two-decimal amounts.
  const check = (await get(h, `http://localhost/checkOrder?orderId=${second}`)).body;
  expect(check.code).toBe(1);
  const back = new URL(check.data);
  expect(back.origin + back.pathname).toBe("http://shop.test/pay/vpay/return_url");
  const q = Object.fromEntries(back.searchParams);
  expect(q).toMatchObject({ order_id: "DJK-A2", param: "DJK-A2", type: "2", price: "10.00", reallyPrice: "9.99" });
  expect(q.sign).toBe(md5(q.payId! + q.param + q.type + q.price + q.reallyPrice + KEY));

  // getState for the client that signed: heartbeat and last push known, online.
  const state = (await get(h, `http://localhost/getState?t=${t()}&sign=${md5(t() + KEY)}`)).body;
  expect(state).toEqual({ code: 1, msg: "成功", data: { lastheart: String(h.clock.now() - 15), lastpay: String(h.clock.now() - 15), jkstate: "1" } });
});

test("a push that matches no order is stored unmatched with its amount, never lost", async () => {
  const r = await get(h, appPushUrl(t(), 1, 77));
  expect(r.body).toMatchObject({ code: 1, data: { outcome: "unmatched" } });
  const [stored] = await h.gw.store.listReports({ outcome: "unmatched" });
  expect(stored).toMatchObject({ kind: "vmq-push", pid: 1001, client: "phone1", amount: 7700, payType: "wxpay" });
  expect(stored!.raw).toContain('"price":"77.0"');
});

test("a vmq order is an ordinary xpay order: JSON create, cashier page, template API, order list, simulate-pay", async () => {
  rx = startReceiver(["success"]);
  await vmqUrls(h, { notifyUrl: rx.url });
  const payId = "VMQ-JSON-1";
  const sign = md5(payId + "" + "1" + "12.3" + KEY);
  const made = (await get(h, `http://localhost/createOrder?payId=${payId}&type=1&price=12.3&sign=${sign}&notifyUrl=${encodeURIComponent(rx.url)}`)).body;
  expect(made).toMatchObject({ code: 1, msg: "成功", data: { payId, payType: 1, price: "12.3", reallyPrice: "12.30", payUrl: "wxp://f2f0wx0001", isAuto: 1, state: 0 } });
  const tradeNo = made.data.orderId as string;
  expect(made.data.date).toBe(h.clock.now());

  expect((await h.app.handle(new Request(`http://localhost/pay/${tradeNo}`))).status).toBe(200);
  const info = (await (await h.app.handle(new Request(`http://localhost/api/order/info?order_id=${tradeNo}`, { method: "POST" }))).json()) as any;
  expect(info).toMatchObject({ order_id: tradeNo, out_order_id: payId, status: 1, amount: 1230, trade_amount: 1230, pay_type: "wxpay" });
  expect((await h.gw.store.listOrders({ pid: 1001 })).map((o) => [o.tradeNo, o.family])).toContainEqual([tradeNo, "vmq"]);

  expect((await settleOperatorPayment(h.gw, tradeNo))?.outcome).toBe("matched"); // `xpay simulate-pay`
  await deliverDue(h.gw);
  await rx.waitFor(1);
  expect(rx.received[0]!.params).toMatchObject({ payId, param: "", type: "1", price: "12.3", reallyPrice: "12.30" });
  expect(dujiaokaAccepts(rx.received[0]!.params)).toBe(true);
  expect((await get(h, `http://localhost/getOrder?orderId=${tradeNo}`)).body.data.state).toBe(1);
});

test("closeOrder closes a pending order once, with the key of its merchant's client only", async () => {
  const payId = "VMQ-CLOSE-1";
  const made = (await get(h, `http://localhost/createOrder?payId=${payId}&type=2&price=5&sign=${md5(payId + "25" + KEY)}`)).body;
  const orderId = made.data.orderId as string;
  const other = await h.gw.store.addMerchant({ pid: 1002, name: "Other", secret: "x".repeat(32), now: h.clock.now() });
  await h.gw.store.addKeyedClient({ kind: "vmq", pid: other.pid, name: "other-phone", key: "k".repeat(32), accountIds: [], now: h.clock.now() });
  expect((await get(h, `http://localhost/closeOrder?orderId=${orderId}&sign=${md5(orderId + "k".repeat(32))}`)).body).toEqual({ code: -1, msg: "云端订单编号不存在", data: null });
  expect((await get(h, `http://localhost/closeOrder?orderId=${orderId}&sign=${md5(orderId + "x")}`)).body).toEqual({ code: -1, msg: "签名校验不通过", data: null });
  expect((await get(h, `http://localhost/closeOrder?orderId=${orderId}&sign=${md5(orderId + KEY)}`)).body).toEqual({ code: 1, msg: "成功", data: null });
  expect((await get(h, `http://localhost/closeOrder?orderId=${orderId}&sign=${md5(orderId + KEY)}`)).body).toEqual({ code: -1, msg: "订单状态不允许关闭", data: null });
  expect((await get(h, `http://localhost/checkOrder?orderId=${orderId}`)).body).toEqual({ code: -1, msg: "订单已过期", data: null });
});

// V免签 signs plain concatenations with no separators, and the app speaks plain HTTP, so an
// on-path observer holds valid signatures. What each captured signature can and cannot be
// turned into: every other cut of a push, a heartbeat reused as a push, the public return URL's
// signature reused anywhere, replayed heartbeats and pushes, another merchant's phone.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { type Harness, harness } from "../helpers.ts";
import { appHeartUrl, appPushUrl, get, KEY, md5, seedVmq } from "./clients.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seedVmq(h);
});
afterEach(() => h.close());

const createUrl = (payId: string, param: string, type: string, price: string) =>
  `http://localhost/createOrder?payId=${payId}&param=${param}&type=${type}&price=${price}&sign=${md5(payId + param + type + price + KEY)}`;

async function order(payId: string, type: string, price: string): Promise<{ orderId: string; reallyPrice: string }> {
  const r = await get(h, createUrl(payId, "", type, price));
  expect(r.body.code).toBe(1);
  return r.body.data;
}

/** Every way to split `text` into (a, b, c) with each part non-empty. */
function cuts3(text: string): [string, string, string][] {
  const out: [string, string, string][] = [];
  for (let i = 1; i < text.length - 1; i++) for (let j = i + 1; j < text.length; j++) out.push([text.slice(0, i), text.slice(i, j), text.slice(j)]);
  return out;
}

const pushWith = (type: string, price: string, t: string, sign: string) =>
  get(h, `http://localhost/appPush?t=${encodeURIComponent(t)}&type=${encodeURIComponent(type)}&price=${encodeURIComponent(price)}&sign=${sign}`);

test("a captured push cannot be re-cut into another push: the one-character type and 13-digit t fix the cut", async () => {
  const t = String(h.clock.nowMs());
  const text = "2" + "10.0" + t;
  const sign = md5(text + KEY);
  const others = cuts3(text).filter(([a, b, c]) => !(a === "2" && b === "10.0" && c === t));
  expect(others.length).toBeGreaterThan(100);
  await order("TARGET", "2", "10"); // something a re-cut push would love to pay
  for (const [type, price, tt] of others) {
    const r = await pushWith(type, price, tt, sign);
    expect(r.body.code).toBe(-1);
  }
  expect((await h.gw.store.listReports({ outcome: "matched" })).length).toBe(0);
});

test("a captured heartbeat is no push, and a replayed heartbeat keeps no phone online", async () => {
  const t = String(h.clock.nowMs());
  const heartSign = md5(t + KEY);
  for (const [type, price, tt] of cuts3(t)) expect((await pushWith(type, price, tt, heartSign)).body.code).toBe(-1);

  const beat = appHeartUrl(t);
  expect((await get(h, beat)).body.code).toBe(1);
  h.clock.advance(60);
  const replay = await get(h, beat);
  expect(replay.body).toEqual({ code: -1, msg: "心跳已处理过（t 不比上一次新）", data: null });
  const older = await get(h, appHeartUrl(String(Number(t) - 1000)));
  expect(older.body.code).toBe(-1);
  const phone = (await h.gw.store.listClients()).find((c) => c.kind === "vmq")!;
  expect(phone.lastSeenAt).toBe(h.clock.now() - 60); // the replays moved nothing
  const [stored] = await h.gw.store.listReports({ outcome: "rejected" });
  expect(stored).toMatchObject({ kind: "vmq-heart", client: "phone1" });
  expect(stored!.reason).toContain("not newer");
  expect((await get(h, appHeartUrl(String(h.clock.nowMs())))).body.code).toBe(1); // the phone's next beat is fine
});

test("the public return URL signature (checkOrder) is no push, no heartbeat, and closes nothing", async () => {
  const o = (await get(h, `${createUrl("PAID-1", "", "2", "10")}&returnUrl=http://shop.test/back`)).body.data;
  expect((await get(h, appPushUrl(String(h.clock.nowMs()), 2, 10))).body.data.outcome).toBe("matched");
  const check = (await get(h, `http://localhost/checkOrder?orderId=${o.orderId}`)).body;
  expect(check.code).toBe(1);
  const q = Object.fromEntries(new URL(check.data).searchParams);
  const text = q.payId! + q.param! + q.type! + q.price! + q.reallyPrice!;
  expect(md5(text + KEY)).toBe(q.sign!);
  await order("NEXT", "2", "10");
  for (const [type, price, tt] of cuts3(text)) expect((await pushWith(type, price, tt, q.sign!)).body.code).toBe(-1);
  expect((await get(h, `http://localhost/appHeart?t=${encodeURIComponent(text)}&sign=${q.sign}`)).body.code).toBe(-1);
  const close = await get(h, `http://localhost/closeOrder?orderId=${encodeURIComponent(text)}&sign=${q.sign}`);
  expect(close.body).toEqual({ code: -1, msg: "云端订单编号不存在", data: null });
  expect((await h.gw.store.listReports({ outcome: "matched" })).length).toBe(1);
});

test("a push re-sent days later, after the amount went to a new order, reads duplicate and pays nothing", async () => {
  const first = await order("DAY-1", "1", "10");
  const t = String(h.clock.nowMs());
  const push = appPushUrl(t, 1, 10);
  expect((await get(h, push)).body.data.outcome).toBe("matched");
  h.clock.advance(20 * 3600); // within the default day, long after the match window
  const next = await order("DAY-2", "1", "10");
  expect(next.reallyPrice).toBe("10.00");
  expect((await get(h, `${push}&force_push=true`)).body.data).toMatchObject({ outcome: "duplicate" });
  expect((await h.gw.store.getOrder(next.orderId))!.status).toBe(1);
  expect((await h.gw.store.getOrder(first.orderId))!.status).toBe(2);
  h.clock.advance(5 * 3600); // past vmq_time_window: refused before any matching
  expect((await get(h, push)).body).toEqual({ code: -1, msg: "客户端时间错误", data: null });
});

test("a phone of another merchant cannot pay this merchant's orders, even on a shared account", async () => {
  await h.gw.store.updateChannel(1, { enabled: false }); // the merchant's own Alipay: the order goes to the shared one
  await h.gw.store.addChannel({ pid: 0, payType: "alipay", code: "ali_shared", name: "Shared", qrcode: "https://qr.alipay.com/s", now: h.clock.now() });
  const mine = await order("MINE", "2", "10");
  await h.gw.store.addMerchant({ pid: 1002, name: "Other", secret: "o".repeat(32), now: h.clock.now() });
  await h.gw.store.addKeyedClient({ kind: "vmq", pid: 1002, name: "other-phone", key: "OTHERKEY0123456789", accountIds: [], now: h.clock.now() });
  const r = await get(h, appPushUrl(String(h.clock.nowMs()), 2, 10, "OTHERKEY0123456789"));
  expect(r.body).toMatchObject({ code: 1, data: { outcome: "unmatched" } });
  expect(r.body.data.reason).toContain("another merchant");
  expect((await h.gw.store.getOrder(mine.orderId))!.status).toBe(1);
});

test("re-cutting a captured createOrder between payId and param makes an order the shop never issued, never a payment", async () => {
  // The shop's own request (what passes through the payer's browser with isHtml=1).
  expect((await get(h, createUrl("20260101080000777", "SHOP-A", "2", "15"))).body.code).toBe(1);
  const text = "20260101080000777" + "SHOP-A" + "2" + "15";
  const sign = md5(text + KEY);
  // payId/param shifted: a new, valid order with a param the shop cannot look up (its notify handler answers fail).
  const shifted = await get(h, `http://localhost/createOrder?payId=20260101080000777S&param=HOP-A&type=2&price=15&sign=${sign}`);
  expect(shifted.body.code).toBe(1);
  // param/type shifted: "SHOP-A2" + type "1" + price "5": also a new order, again with a param the shop never issued.
  const cheaper = await get(h, `http://localhost/createOrder?payId=20260101080000777&param=SHOP-A2&type=1&price=5&sign=${sign}`);
  expect(cheaper.body).toEqual({ code: -1, msg: "商户订单号已存在", data: null });
  const cheaper2 = await get(h, `http://localhost/createOrder?payId=2026010108000077&param=7SHOP-A2&type=1&price=5&sign=${sign}`);
  expect(cheaper2.body.code).toBe(1);
  const made = await h.gw.store.getOrder(cheaper2.body.data.orderId);
  expect(made!.param).toBe("7SHOP-A2");
  // Type and price stay fixed by their shape: a two-character type or a price of 0 is refused.
  expect((await get(h, `http://localhost/createOrder?payId=20260101080000777&param=SHOP-A&type=21&price=5&sign=${sign}`)).body.code).toBe(-1);
  const ten = md5("20260101080000888" + "SHOP-B" + "2" + "10" + KEY);
  expect((await get(h, `http://localhost/createOrder?payId=20260101080000888&param=SHOP-B2&type=1&price=0&sign=${ten}`)).body).toEqual({ code: -1, msg: "订单金额必须大于0", data: null });
});

// More than one phone, which V免签 (one key, one monitor) cannot do: two Alipay accounts, each
// watched by its own phone with its own key. A push names only a pay type and an amount, and both
// accounts can hold the same payable amount, so an unbound client's push is ambiguous (stored,
// nothing paid), while a client bound to its account pays that account's order only.
import { afterEach, beforeEach, expect, test } from "bun:test";
import type { ChannelAccount } from "../../src/core/types.ts";
import { type Harness, harness } from "../helpers.ts";
import { appHeartUrl, appPushUrl, get, KEY, md5, seedVmq } from "./clients.ts";

let h: Harness;
let a: ChannelAccount;
let b: ChannelAccount;
beforeEach(async () => {
  h = harness();
  ({ account: a } = await seedVmq(h));
  b = await h.gw.store.addChannel({ pid: 1001, payType: "alipay", code: "alipay_b", name: "Alipay B", qrcode: "https://qr.alipay.com/fkx0002", now: h.clock.now() });
});
afterEach(() => h.close());

async function twoOrdersOfTen(): Promise<Record<number, string>> {
  const byAccount: Record<number, string> = {};
  for (const payId of ["T1", "T2"]) {
    const made = (await get(h, `http://localhost/createOrder?payId=${payId}&type=2&price=10&sign=${md5(payId + "210" + KEY)}`)).body;
    expect(made.data.reallyPrice).toBe("10.00"); // unique per account, so both accounts hold 10.00
    byAccount[(await h.gw.store.getOrder(made.data.orderId))!.accountId!] = made.data.orderId;
  }
  expect(Object.keys(byAccount).map(Number).sort()).toEqual([a.id, b.id].sort());
  return byAccount;
}

test("an unbound client's push that two accounts could mean pays nothing and says why", async () => {
  const orders = await twoOrdersOfTen();
  const r = await get(h, appPushUrl(String(h.clock.nowMs()), 2, 10));
  expect(r.body).toMatchObject({ code: 1, data: { outcome: "unmatched" } });
  expect(r.body.data.reason).toContain(orders[a.id]!);
  expect(r.body.data.reason).toContain(orders[b.id]!);
  for (const tradeNo of Object.values(orders)) expect((await h.gw.store.getOrder(tradeNo))!.status).toBe(1);
});

test("two phones bound to their accounts each pay their own account's order; heartbeats mark their own account online", async () => {
  await h.gw.store.addKeyedClient({ kind: "vmq", pid: 1001, name: "phone-a", key: "key-of-phone-a-0001", accountIds: [a.id], now: h.clock.now() });
  await h.gw.store.addKeyedClient({ kind: "vmq", pid: 1001, name: "phone-b", key: "key-of-phone-b-0002", accountIds: [b.id], now: h.clock.now() });
  const orders = await twoOrdersOfTen();

  h.clock.advance(5);
  expect((await get(h, appHeartUrl(String(h.clock.nowMs()), "key-of-phone-b-0002"))).body.code).toBe(1);
  expect((await h.gw.store.getChannel(b.id))!.lastSeenAt).toBe(h.clock.now());
  expect((await h.gw.store.getChannel(a.id))!.lastSeenAt).toBeLessThan(h.clock.now());

  const pushB = await get(h, appPushUrl(String(h.clock.nowMs()), 2, 10, "key-of-phone-b-0002"));
  expect(pushB.body.data).toMatchObject({ outcome: "matched", orderId: orders[b.id] });
  expect((await h.gw.store.getOrder(orders[a.id]!))!.status).toBe(1);
  const pushA = await get(h, appPushUrl(String(h.clock.nowMs()), 2, 10, "key-of-phone-a-0001"));
  expect(pushA.body.data).toMatchObject({ outcome: "matched", orderId: orders[a.id] });

  // Phone A watches no WeChat account: its WeChat push is stored, never matched elsewhere.
  const wxUrl = appPushUrl(String(h.clock.nowMs()), 1, 10, "key-of-phone-a-0001");
  expect((await get(h, wxUrl)).body.data).toMatchObject({ outcome: "unmatched", reason: "V免签 client phone-a watches no wxpay account; nothing paid" });
  expect((await get(h, `${wxUrl}&force_push=true`)).body.data.outcome).toBe("duplicate");
});

// Accounts of equal `sort` take orders in turn (least recently used first), however many orders
// arrive within the same second: the use stamp is a sequence, not a clock reading.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { harness, type Harness, nativeCreate, postForm, seed } from "../helpers.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
  for (const code of ["b", "c"]) {
    await h.gw.store.addChannel({ pid: 0, payType: "alipay", code, name: code, qrcode: `https://qr.alipay.com/${code}`, now: h.clock.now() });
  }
});
afterEach(() => h.close());

async function accountOf(): Promise<number> {
  const res = await postForm(h, "/xpay/order/create", nativeCreate({ money: "10.00" }));
  const body = (await res.json()) as { code: number; data: { trade_no: string } };
  expect(body.code).toBe(200);
  return (await h.gw.store.getOrder(body.data.trade_no))!.accountId!;
}

test("nine creates in one second go round the three accounts three times", async () => {
  const used: number[] = [];
  for (let i = 0; i < 9; i++) used.push(await accountOf()); // the ManualClock does not move
  const [a, b, c] = used as [number, number, number];
  expect(new Set([a, b, c]).size).toBe(3);
  expect(used).toEqual([a, b, c, a, b, c, a, b, c]);
});

test("concurrent creates (one group commit) spread over the accounts too", async () => {
  const used = await Promise.all(Array.from({ length: 9 }, () => accountOf()));
  const counts = new Map<number, number>();
  for (const id of used) counts.set(id, (counts.get(id) ?? 0) + 1);
  expect([...counts.values()]).toEqual([3, 3, 3]);
});

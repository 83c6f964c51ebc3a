// Issue 22, reserved amounts: the view (core/slots/reserved.ts, `xpay channel slots`) agrees with
// the allocator. Orders are created, closed, paid and left to expire through the real routes; after
// each step the view is read and one more order is created: its trade_amount must be the first
// amount the view shows as free, and every amount the view shows held must be one the allocator
// skipped. Also: until when each slot is held, and the CLI printing the same.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { payOrder } from "../../src/core/pay-order.ts";
import { reservedAmounts } from "../../src/core/slots/reserved.ts";
import { cliOn } from "../cli/run-cli.ts";
import { harness, type Harness, postJson, seed, signed } from "../helpers.ts";
import { seeded } from "../seeded.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h); // merchant 1001 and shared alipay account 1
});
afterEach(() => h.close());

let n = 0;
async function create(money: string) {
  const { body } = await postJson(h, "/xpay/order/create", signed({ pid: 1001, pay_type: "alipay", name: "n", money, out_trade_no: `S${++n}`, notify_url: "" }));
  if (body.code !== 200) return { ok: false as const, tradeNo: "", ta: null };
  const order = (await h.gw.store.getOrder(body.data.trade_no))!;
  return { ok: true as const, tradeNo: order.tradeNo, ta: order.tradeAmount };
}
const cancel = (tradeNo: string) => postJson(h, "/xpay/order/cancel", signed({ pid: 1001, order_id: tradeNo, timestamp: h.clock.now() }));

/** A whole number in [0, k), from the tests' seeded generator: a failure is reproducible. */
function rng(seed: number) {
  const next = seeded(seed);
  return (k: number) => Math.floor(next() * k);
}

describe("the view agrees with the allocator", () => {
  for (const direction of ["down", "up"] as const) {
    test(`create, read the view, create one more, compare (${direction}, 120 random steps)`, async () => {
      await h.gw.store.setSetting("offset_direction", direction);
      await h.gw.store.setSetting("max_offset", "4");
      h.gw.forgetSettings();
      const r = rng(direction === "down" ? 7 : 11);
      const amounts = ["1.00", "1.02", "1.05"];
      const live: string[] = [];
      let checks = 0;
      const seen = new Set<number>();
      for (let step = 0; step < 120; step++) {
        const act = r(10);
        if (act < 5) {
          const c = await create(amounts[r(3)]!);
          if (c.ok) live.push(c.tradeNo);
        } else if (act < 7 && live.length) {
          await cancel(live.splice(r(live.length), 1)[0]!);
        } else if (act < 8 && live.length) {
          await payOrder(h.gw, live.splice(r(live.length), 1)[0]!);
        } else {
          h.clock.advance(r(8) * 150); // orders expire (900 s) and leave the match window (600 s) meanwhile
          // serve's sweeper writes status 4 now and then; until it runs, an expired order still says 1
          if (r(3)) await h.gw.store.expireOrders(h.clock.now());
        }
        const money = amounts[r(3)]!;
        const cents = Math.round(Number(money) * 100);
        const view = (await reservedAmounts(h.gw, 1, { probe: cents }))!;
        for (const s of view.slots) seen.add(s.status);
        const held = new Set(view.slots.map((s) => s.tradeAmount));
        // The probe's steps and the list say the same thing about each amount.
        for (const s of view.probe!.steps) expect(held.has(s.tradeAmount)).toBe(s.heldBy !== null);
        const next = await create(money);
        expect({ step, got: next.ta }).toEqual({ step, got: view.probe!.next });
        if (next.ok) {
          live.push(next.tradeNo);
          // What the allocator skipped on its way is exactly what the view showed held.
          for (const s of view.probe!.steps) {
            if (s.tradeAmount === next.ta) break;
            expect(s.heldBy).not.toBeNull();
          }
        }
        checks++;
      }
      expect(checks).toBe(120);
      expect([...seen].sort()).toEqual([1, 2, 3, 4]); // every stored status held a slot at some step
    });
  }
});

test("each slot says which order holds it and until when: expiry, closing or payment + match_window", async () => {
  const t0 = h.clock.now();
  const pending = await create("10.00");
  const closed = await create("10.00");
  const paid = await create("10.00");
  h.clock.advance(60);
  await cancel(closed.tradeNo);
  h.clock.advance(60);
  await payOrder(h.gw, paid.tradeNo);
  const v = (await reservedAmounts(h.gw, 1, { probe: 1000 }))!;
  expect(v.slots.map((s) => [s.tradeAmount, s.tradeNo, s.shownStatus, s.endedAt, s.heldUntil])).toEqual([
    [998, paid.tradeNo, 2, t0 + 120, t0 + 120 + 600],
    [999, closed.tradeNo, 3, t0 + 60, t0 + 60 + 600],
    [1000, pending.tradeNo, 1, null, t0 + 900 + 600],
  ]);
  expect(v.probe!.next).toBe(997);
  expect(v.probe!.steps.slice(0, 4).map((s) => s.heldBy?.tradeNo ?? null)).toEqual([pending.tradeNo, closed.tradeNo, paid.tradeNo, null]);

  // A pending order past expire_time reads as timed out and still holds its amount until the window ends.
  h.clock.advance(900);
  const later = (await reservedAmounts(h.gw, 1))!;
  expect(later.slots.map((s) => [s.tradeAmount, s.shownStatus])).toEqual([[1000, 4]]);
  expect(later.slots[0]!.endedAt).toBe(t0 + 900);
  expect(await h.gw.store.expireOrders(h.clock.now())).toBe(1); // the sweeper's status 4 holds the same way
  expect((await reservedAmounts(h.gw, 1))!.slots.map((s) => [s.tradeAmount, s.status, s.heldUntil])).toEqual([[1000, 4, t0 + 900 + 600]]);
  h.clock.advance(t0 + 900 + 600 - h.clock.now() + 1);
  expect((await reservedAmounts(h.gw, 1))!.slots).toEqual([]);
  expect(await reservedAmounts(h.gw, 99)).toBeNull();
});

test("xpay channel slots prints the same, as a table and as JSON", async () => {
  const a = await create("10.00");
  const b = await create("10.00");
  const { xpay, json, refused } = cliOn(h.dbPath);
  const j = json("channel", "slots", "1", "--amount", "10.00");
  expect(j.slots.map((s: { trade_amount_cents: number; trade_no: string }) => [s.trade_amount_cents, s.trade_no])).toEqual([[999, b.tradeNo], [1000, a.tradeNo]]);
  expect(j.probe).toMatchObject({ amount_cents: 1000, next_cents: 998 });
  expect(j.max_offset_cents).toBe(10);
  const view = (await reservedAmounts(h.gw, 1))!;
  expect(j.slots.map((s: { held_until: number }) => s.held_until)).toEqual(view.slots.map((s) => s.heldUntil));
  const text = xpay("channel", "slots", "1", "--amount", "10.00").out;
  expect(text).toContain("2 payable amount(s) held");
  expect(text).toMatch(new RegExp(`¥9\\.99\\s+${b.tradeNo}`));
  expect(text).toContain("max_offset ¥0.10");
  expect(text).toContain("next order of ¥10.00 here: ¥9.98");
  refused(["channel", "slots", "7"], "no account with id 7 (xpay channel list shows them)");
  refused(["channel", "slots", "1", "--amount", "ten"], '--amount: "ten" is not an amount in yuan; write it like 10 or 10.00');
  refused(["channel", "slots", "1", "--amount", "0"], '--amount: "0" must be more than 0 yuan; write it like 10 or 10.00');
});

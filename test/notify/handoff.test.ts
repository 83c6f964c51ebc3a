// A payment's notification handed to the worker of its own process as its row is written
// (core/notify/handoff.ts): written leased, sent once the commit is answered, never found by a
// claim; rows already waiting go first; a stopping worker still sends what it took.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { offerNotification, type Taker } from "../../src/core/notify/handoff.ts";
import { payUnit } from "../../src/core/pay-order.ts";
import type { Notification, PayResult } from "../../src/core/store.ts";
import { startWorker, type Worker } from "../../src/server/worker.ts";
import { harness, type Harness, seed } from "../helpers.ts";
import { amountReport, createOrder } from "../report/util.ts";
import { type Receiver, startReceiver } from "./receiver.ts";

let h: Harness;
let rx: Receiver | undefined;
let worker: Worker | undefined;
beforeEach(async () => {
  h = harness();
  await seed(h);
});
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
  rx?.stop();
  rx = undefined;
  h.close();
});

const cents = (yuan: string) => Math.round(Number(yuan) * 100);

/** Until the worker's first pass: it takes rows as they are written only once it knows its caps. */
async function ready(): Promise<void> {
  for (let i = 0; i < 200 && !h.gw.notificationTaker(); i++) await Bun.sleep(5);
  expect(h.gw.notificationTaker()).not.toBeNull();
}

/** Records the trade_no of every row a claim returned. */
function claims(): string[] {
  const claimed: string[] = [];
  const claim = h.gw.store.claimDueNotifications.bind(h.gw.store);
  h.gw.store.claimDueNotifications = async (...a) => {
    const rows = await claim(...a);
    claimed.push(...rows.map((n) => n.tradeNo));
    return rows;
  };
  return claimed;
}

describe("a payment's notification taken as its row is written", () => {
  test("it goes out once, and no claim ever returns it", async () => {
    rx = startReceiver(["success"]);
    worker = startWorker(h.gw, { pollMs: 20 });
    await ready();
    const claimed = claims();
    const o = await createOrder(h, { notify_url: rx.url });
    await amountReport(h, cents(o.trade_amount));
    await rx.waitFor(1);
    await worker.stop();
    expect(rx.received.map((r) => r.params.trade_no)).toEqual([o.trade_no]);
    expect((await h.gw.store.getNotification(o.trade_no))?.status).toBe("delivered");
    expect(claimed).not.toContain(o.trade_no);
  });

  test("while rows of the merchant wait in the claim, new ones wait behind them and all go out in order", async () => {
    const held: (() => void)[] = [];
    const order: string[] = [];
    const slow = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(req) {
        order.push(new URLSearchParams(await req.text()).get("trade_no") ?? "");
        return new Promise<Response>((r) => held.push(() => r(new Response("success"))));
      },
    });
    try {
      worker = startWorker(h.gw, { pollMs: 20, caps: { perMerchant: 1, perTarget: 1 } });
      await ready();
      const url = `http://127.0.0.1:${slow.port}/n`;
      const orders = [await createOrder(h, { notify_url: url, money: "10.00" }), await createOrder(h, { notify_url: url, money: "11.00" }), await createOrder(h, { notify_url: url, money: "12.00" })];
      await amountReport(h, cents(orders[0]!.trade_amount));
      for (let i = 0; i < 200 && held.length < 1; i++) await Bun.sleep(5);
      await amountReport(h, cents(orders[1]!.trade_amount)); // over the cap: written due, for the claim
      await Bun.sleep(60); // a pass (woken, and polled) refuses it: the merchant's share is full
      expect(h.gw.notificationTaker()).toBeNull(); // a row waits: the next is not taken ahead of it
      await amountReport(h, cents(orders[2]!.trade_amount));
      for (let sent = 1; sent <= 3; sent++) {
        for (let i = 0; i < 400 && held.length < sent; i++) await Bun.sleep(5);
        expect(held.length).toBe(sent); // one at a time: the cap of one holds for taken rows too
        held[sent - 1]!();
      }
      await worker.stop();
      expect(order).toEqual(orders.map((o) => o.trade_no));
      for (const o of orders) expect((await h.gw.store.getNotification(o.trade_no))?.status).toBe("delivered");
      // Nothing waits any more: the worker takes rows as they are written again.
      worker = startWorker(h.gw, { pollMs: 20 });
      await ready();
    } finally {
      for (const r of held) r();
      slow.stop(true);
    }
  });

  test("the merchant's answer sends the row waiting for its share at once, not at the next poll", async () => {
    const held: (() => void)[] = [];
    const slow = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Promise<Response>((r) => held.push(() => r(new Response("success")))) });
    try {
      worker = startWorker(h.gw, { pollMs: 1000, caps: { perMerchant: 1, perTarget: 1 } });
      await ready();
      const url = `http://127.0.0.1:${slow.port}/n`;
      const first = await createOrder(h, { notify_url: url, money: "10.00" });
      const second = await createOrder(h, { notify_url: url, money: "11.00" });
      await amountReport(h, cents(first.trade_amount));
      await amountReport(h, cents(second.trade_amount)); // over the cap: waits in the claim
      for (let i = 0; i < 200 && held.length < 1; i++) await Bun.sleep(5);
      await Bun.sleep(1100); // the poll after it has run and refused it as well
      expect(held.length).toBe(1);
      const t0 = performance.now();
      held[0]!();
      for (let i = 0; i < 200 && held.length < 2; i++) await Bun.sleep(2);
      expect(held.length).toBe(2);
      expect(performance.now() - t0).toBeLessThan(500); // well before the next poll
      held[1]!();
    } finally {
      for (const r of held) r();
      slow.stop(true);
    }
  });

  test("a stopping worker sends the row it took, once the payment's commit is answered, and records it", async () => {
    rx = startReceiver(["success"]);
    worker = startWorker(h.gw, { pollMs: 20 });
    await ready();
    const o = await createOrder(h, { notify_url: rx.url });
    const merchant = (await h.gw.store.getMerchant(1001))!;
    const offer = offerNotification(h.gw);
    const pay = await h.gw.store.payOrder(offer.wrap(payUnit(h.gw, merchant, 600, o.trade_no)));
    const stopping = worker.stop();
    const again = worker.stop(); // serve's signal handler and its caller may both stop it
    worker = undefined;
    await Bun.sleep(50); // the commit is answered after stop() began
    offer.settled(pay);
    await Promise.all([stopping, again]);
    expect(rx.received.map((r) => r.params.trade_no)).toEqual([o.trade_no]);
    expect((await h.gw.store.getNotification(o.trade_no))?.status).toBe("delivered");
  });
});

describe("offerNotification", () => {
  function fake() {
    const calls: string[] = [];
    const delivered: Notification[] = [];
    let answer: number | null = 123_456;
    const taker: Taker = {
      lease: (row) => (calls.push(`lease ${row.pid} ${row.url}`), answer),
      deliver: (n) => void delivered.push(n),
      cancel: () => void calls.push("cancel"),
    };
    return { calls, delivered, taker, refuse: () => void (answer = null) };
  }
  const paid = (id: number | null): PayResult => ({ kind: "paid", order: { tradeNo: "T1", pid: 1001 } as never, notificationId: id });
  const entry = { family: "native", url: "http://127.0.0.1:9/n", method: "POST" as const, params: { trade_no: "T1" } };
  const unit = () => ({ tradeNo: "T1", now: 1, nowMs: 1_000, acceptTimedOutSince: 0, outbox: () => entry });

  test("leased and committed: the worker gets the row as written", () => {
    const f = fake();
    const off = h.gw.onTakeNotification(() => f.taker);
    const offer = offerNotification(h.gw);
    const u = offer.wrap(unit());
    expect(u.outbox({} as never)).toEqual(entry);
    expect(u.lease!({ pid: 1001, url: entry.url })).toBe(123_456);
    offer.settled(paid(7));
    off();
    expect(f.delivered).toEqual([{ id: 7, tradeNo: "T1", pid: 1001, ...entry, status: "pending", attempts: 0, nextAttemptAt: 1_000, createdAt: 1_000, deliveredAt: null }]);
    expect(f.calls).toEqual([`lease 1001 ${entry.url}`]);
  });

  test("leased but not committed: the share goes back and nothing is sent", () => {
    for (const result of [null, { kind: "not_found" } as PayResult]) {
      const f = fake();
      const off = h.gw.onTakeNotification(() => f.taker);
      const offer = offerNotification(h.gw);
      offer.wrap(unit()).lease!({ pid: 1001, url: entry.url });
      offer.settled(result);
      off();
      expect(f.calls).toEqual([`lease 1001 ${entry.url}`, "cancel"]);
      expect(f.delivered).toEqual([]);
    }
  });

  test("not taken, or no worker: the row was written due and the worker is woken", () => {
    let woken = 0;
    const unwake = h.gw.onNotificationQueued(() => woken++);
    const f = fake();
    f.refuse();
    const off = h.gw.onTakeNotification(() => f.taker);
    const offer = offerNotification(h.gw);
    expect(offer.wrap(unit()).lease!({ pid: 1001, url: entry.url })).toBeNull();
    offer.settled(paid(8));
    off();
    expect(f.delivered).toEqual([]);
    const bare = offerNotification(h.gw); // no worker in this process
    expect(bare.wrap(unit()).lease).toBeUndefined();
    bare.settled(paid(9));
    bare.settled(paid(null)); // no notify_url: nothing to wake for
    unwake();
    expect(woken).toBe(2);
  });
});

// The worker inside `serve`: woken by its own process's payments, polling for other processes'
// rows, and resuming after a restart on the same database file.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { deliverDue } from "../../src/core/notify/deliver.ts";
import { settleOperatorPayment } from "../../src/core/settle-report.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import { startWorker } from "../../src/server/worker.ts";
import { BASE, harness, type Harness, seed } from "../helpers.ts";
import { amountReport, createOrder } from "../report/util.ts";
import { type Receiver, startReceiver } from "./receiver.ts";

let h: Harness;
let rx: Receiver;
beforeEach(async () => {
  h = harness();
  await seed(h);
});
afterEach(() => {
  rx?.stop();
  h.close();
});

describe("notification worker", () => {
  test("a payment wakes the worker at once", async () => {
    rx = startReceiver(["success"]);
    const worker = startWorker(h.gw, { pollMs: 1000 });
    try {
      const o = await createOrder(h, { notify_url: rx.url });
      const t0 = performance.now();
      await amountReport(h, 1000);
      await rx.waitFor(1, 900); // well before the next poll
      expect(performance.now() - t0).toBeLessThan(900);
      await worker.stop();
      expect((await h.gw.store.getNotification(o.trade_no))?.status).toBe("delivered");
    } finally {
      await worker.stop();
    }
  });

  test("rows written by another process are found by polling", async () => {
    rx = startReceiver(["success"]);
    const worker = startWorker(h.gw, { pollMs: 50 });
    const other = openGateway({ db: h.dbPath, baseUrl: BASE, clock: h.clock }); // e.g. `xpay simulate-pay` from a terminal
    try {
      const o = await createOrder(h, { notify_url: rx.url });
      expect((await settleOperatorPayment(other, o.trade_no))?.outcome).toBe("matched");
      await rx.waitFor(1);
    } finally {
      await worker.stop();
      other.store.close();
    }
  });

  test("stop waits for the attempt in flight and records it", async () => {
    let release: () => void = () => {};
    const { promise: arrived, resolve: arrive } = Promise.withResolvers<void>();
    const slow = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () => new Promise<Response>((r) => ((release = () => r(new Response("success"))), arrive())),
    });
    const worker = startWorker(h.gw, { pollMs: 20 });
    try {
      const o = await createOrder(h, { notify_url: `http://127.0.0.1:${slow.port}/n` });
      await amountReport(h, 1000);
      await arrived; // the attempt is in flight (a fixed sleep raced it on a loaded machine)
      const stopping = worker.stop();
      release();
      await stopping;
      expect((await h.gw.store.getNotification(o.trade_no))?.status).toBe("delivered");
    } finally {
      slow.stop(true);
    }
  });

  test("restart in the middle: the pending notification still arrives", async () => {
    rx = startReceiver(["fail", "success"]);
    const o = await createOrder(h, { notify_url: rx.url });
    await amountReport(h, 1000);
    await deliverDue(h.gw); // first attempt fails, the next one is due in 15 s
    h.gw.store.close(); // the server goes down

    h.clock.advance(60); // ... and comes back after the retry fell due
    const gw2 = openGateway({ db: h.dbPath, baseUrl: BASE, clock: h.clock });
    const worker = startWorker(gw2, { pollMs: 50 });
    try {
      await rx.waitFor(2);
    } finally {
      await worker.stop();
    }
    const n = await gw2.store.getNotification(o.trade_no);
    gw2.store.close();
    expect([n?.status, n?.attempts]).toEqual(["delivered", 2]);
  });

  test("the worker also writes timed-out orders", async () => {
    const o = await createOrder(h);
    h.clock.advance(901);
    const worker = startWorker(h.gw, { pollMs: 20, sweepMs: 0 });
    const end = Date.now() + 5000; // within a pass or two; a deadline, not a fixed sleep, for a loaded machine
    while ((await h.gw.store.getOrder(o.trade_no))?.status !== 4 && Date.now() < end) await Bun.sleep(10);
    await worker.stop();
    expect((await h.gw.store.getOrder(o.trade_no))?.status).toBe(4);
  });
});

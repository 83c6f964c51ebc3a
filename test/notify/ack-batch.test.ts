// Acknowledgements written in batches, as the worker sees them: a merchant's share is free again
// once its endpoint answered (not once the attempt is stored), and a worker killed with a batch of
// acknowledgements queued sends again only those, on SQLite and on PostgreSQL.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Store } from "../../src/core/store.ts";
import { PostgresStore } from "../../src/store/postgres/index.ts";
import { SqliteStore } from "../../src/store/sqlite/index.ts";
import { startWorker } from "../../src/server/worker.ts";
import { harness, type Harness, seed, tempDir } from "../helpers.ts";
import { type PgCluster, startCluster, withPostgres } from "../pg/cluster.ts";
import { account, merchant, T0 } from "../store-contract/harness.ts";
import { paidOrders } from "../store-contract/outbox.contract.ts";
import { amountReport, createOrder } from "../report/util.ts";
import { type Receiver, startReceiver } from "./receiver.ts";

let h: Harness | null = null;
let rx: Receiver | null = null;
afterEach(() => {
  rx?.stop();
  h?.close();
  rx = null;
  h = null;
});

test("a merchant's share is free once its endpoint answered: the next notification goes while the first attempt is still being stored", async () => {
  h = harness();
  await seed(h);
  rx = startReceiver(["success"]);
  const store = h.gw.store;
  const record = store.recordNotificationAttempt;
  let stored = 0;
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  // Every attempt's write waits until the test lets it go (a slow commit).
  store.recordNotificationAttempt = async (id, o) => {
    await held;
    await record(id, o);
    stored++;
  };
  const worker = startWorker(h.gw, { pollMs: 20, caps: { perMerchant: 1, perTarget: 1 } });
  try {
    await createOrder(h, { notify_url: rx.url, money: "10.00" });
    await createOrder(h, { notify_url: rx.url, money: "20.00" });
    await amountReport(h, 1000);
    await amountReport(h, 2000);
    // One share for the merchant: the second goes out only because the first one's answer freed it.
    await rx.waitFor(2, 3000);
    expect(stored).toBe(0);
  } finally {
    release();
    await worker.stop();
    store.recordNotificationAttempt = record;
  }
  expect(stored).toBe(2);
  expect((await store.listNotifications({})).map((n) => n.status)).toEqual(["delivered", "delivered"]);
});

/** The crash: the child leases all six, the first three attempts commit, the last three are queued when it dies. */
async function crashMidBatch(open: () => Store, db: string): Promise<void> {
  const s = open();
  try {
    await merchant(s);
    await account(s);
    const trades = await paidOrders(s, 6);
    const now = T0 * 1000 + 100;
    const child = Bun.spawn([process.execPath, join(import.meta.dir, "ack-crash-child.ts"), db, String(now)], { stdout: "inherit", stderr: "inherit" });
    expect(await child.exited).not.toBe(0);
    expect(child.signalCode).toBe("SIGKILL");
    const rows = await Promise.all(trades.map((t) => s.getNotification(t)));
    expect(rows.map((n) => n!.status)).toEqual(["delivered", "delivered", "delivered", "pending", "pending", "pending"]);
    // Nothing is due again while the dead worker's lease lasts; after it, only the unacknowledged three.
    expect(await s.claimDueNotifications(now + 89_000, 100, 90_000)).toEqual([]);
    const again = await s.claimDueNotifications(now + 90_001, 100, 90_000);
    expect(again.map((n) => n.tradeNo)).toEqual(trades.slice(3));
    expect(again.every((n) => n.attempts === 0)).toBe(true);
  } finally {
    s.close();
  }
}

test("SQLite: a worker killed with a batch of acknowledgements queued sends again only those", async () => {
  const dir = tempDir("xpay-ack-crash-");
  const db = join(dir, "xpay.db");
  try {
    await crashMidBatch(() => SqliteStore.open(db), db);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

withPostgres(() => {
  describe("PostgreSQL", () => {
    let cluster: PgCluster | null = null;
    beforeAll(async () => {
      cluster = await startCluster();
    }, 120_000);
    afterAll(() => cluster?.stop());

    test("a worker killed with a batch of acknowledgements queued sends again only those", async () => {
      const url = await cluster!.createDatabase("ack_crash");
      await crashMidBatch(() => PostgresStore.open(url), url);
    }, 60_000);
  });
});

test("SQLite: after close the file alone is the database, though the attempts' statements were prepared once", async () => {
  const dir = tempDir("xpay-ack-close-");
  const db = join(dir, "xpay.db");
  try {
    const s = SqliteStore.open(db);
    await merchant(s);
    await account(s);
    const [t] = await paidOrders(s, 1);
    const [n] = await s.claimDueNotifications(T0 * 1000 + 10, 10, 90_000, { perMerchant: 16, admit: () => true });
    await s.recordNotificationAttempt(n!.id, { attempt: { attemptedAt: T0 * 1000 + 20, durationMs: 1, httpStatus: 200, body: "success", error: "", acknowledged: true }, status: "delivered", nextAttemptAt: 0 });
    s.close();
    // A statement left open kept the connection after close(): the WAL stayed and held the rows.
    expect(existsSync(`${db}-wal`)).toBe(false);
    const copy = join(dir, "copy.db");
    copyFileSync(db, copy);
    const again = SqliteStore.open(copy);
    expect((await again.getNotification(t!))?.status).toBe("delivered");
    again.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// The alert conditions' facts on a database file are read on a thread of their own: the same
// facts as a read on the loop, and the loop goes on while they are read (it did not: grouping
// every pending order by account held every request for tens of ms on a large table).
import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { existsSync, rmSync } from "node:fs";
import type { FactQuery } from "../../src/core/alerts/store.ts";
import { readFacts } from "../../src/store/sqlite/alert-facts.ts";
import { factsReader } from "../../src/store/sqlite/facts-reader.ts";
import { SqliteStore } from "../../src/store/sqlite/index.ts";
import { tempDir } from "../helpers.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const NOW = 1_790_000_000;
const query: FactQuery = { now: NOW, limit: 50, minAttempts: 3, deliveredSince: 0, createdSince: NOW - 3600 } as FactQuery;

/** A store on a file with two accounts, `pending` pending orders on them and a few failed creates. */
async function storeWith(pending: number): Promise<SqliteStore> {
  const dir = tempDir("xpay-facts-");
  dirs.push(dir);
  const store = SqliteStore.open(join(dir, "x.db"));
  await store.addMerchant({ pid: 1001, name: "shop", secret: "a1b2c3d4e5f60718293a4b5c6d7e8f90", now: NOW - 7200 });
  for (const code of ["a", "b"]) await store.addChannel({ pid: 0, payType: "alipay", code, name: `acc ${code}`, qrcode: `https://qr/${code}`, now: NOW - 7200 });
  store.db.exec(`WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ${pending + 9})
    INSERT INTO orders (trade_no, pid, out_trade_no, family, pay_type, name, amount, status, fail_reason, account_id, trade_amount, notify_url, return_url, param, clientip, device, extra, created_at, expire_time, seq)
    SELECT printf('20261128%012d', i), 1001, 'o' || i, 'native', 'alipay', 'x', 100 + i, CASE WHEN i < ${pending} THEN 1 ELSE 5 END,
      CASE WHEN i < ${pending} THEN '' ELSE 'no enabled account' END, CASE WHEN i < ${pending} THEN 1 + i % 2 END, CASE WHEN i < ${pending} THEN 100 + i END,
      'http://127.0.0.1/n', '', '', '127.0.0.1', '', '{}', ${NOW} - 600 + i % 500, ${NOW} + 300, i + 1 FROM s`);
  return store;
}

test("on a file: the facts equal a read on the loop, and the loop runs while they are read", async () => {
  const store = await storeWith(20_000);
  try {
    const onLoop = readFacts(store.db, query);
    expect(onLoop.pendingAccounts.map((a) => [a.id, a.pending])).toEqual([[1, 10_000], [2, 10_000]]);
    expect(onLoop.createFailures).toHaveLength(1);
    let turned = false;
    setImmediate(() => (turned = true));
    const facts = await store.alerts.readFacts(query);
    expect(turned).toBe(true); // on the loop, the read would have finished before the next turn
    expect(facts).toEqual(onLoop);
    // Once more on the same thread: it stays, and sees what was committed since.
    store.db.exec("UPDATE orders SET status = 3, closed_at = expire_time WHERE trade_no IN (SELECT trade_no FROM orders WHERE account_id = 2 LIMIT 4000)");
    const again = await store.alerts.readFacts(query);
    expect(again.pendingAccounts.map((a) => [a.id, a.pending])).toEqual([[1, 10_000], [2, 6_000]]);
  } finally {
    store.close();
  }
});

test("closing the store closes the thread's connection too: the writer's close is the last, the log is folded in and removed", async () => {
  const store = await storeWith(10);
  const path = store.db.filename;
  await store.alerts.readFacts(query); // the thread and its connection are open now
  store.db.exec("UPDATE orders SET name = 'after the read' WHERE trade_no = '20261128000000000003'");
  expect(existsSync(`${path}-wal`)).toBe(true);
  store.close();
  // A connection left open in the thread kept these two beside the file, the UPDATE only in the log.
  expect([existsSync(`${path}-wal`), existsSync(`${path}-shm`)]).toEqual([false, false]);
  const copy = join(tempDir("xpay-facts-copy-"), "alone.db");
  dirs.push(join(copy, ".."));
  await Bun.write(copy, Bun.file(path)); // the database file alone, as an operator copies it after a stop
  const alone = SqliteStore.open(copy);
  try {
    expect((alone.db.query("SELECT name FROM orders WHERE trade_no = '20261128000000000003'").get() as { name: string }).name).toBe("after the read");
  } finally {
    alone.close();
  }
});

test("in memory: read on the loop; a closed reader answers what it was asked with an error", async () => {
  const mem = SqliteStore.open(":memory:");
  expect((await mem.alerts.readFacts(query)).pendingAccounts).toEqual([]);
  mem.close();
  const store = await storeWith(5_000);
  const reader = factsReader(store.db);
  const asked = reader.read(query);
  reader.close();
  await expect(asked).rejects.toThrow("closed");
  store.close();
});

test("a thread that cannot open its file: the facts are read on the loop, and that is reported once", async () => {
  const store = await storeWith(3_000);
  const errors: string[] = [];
  const elsewhere = tempDir("xpay-facts-missing-");
  dirs.push(elsewhere);
  const reader = factsReader(store.db, { path: join(elsewhere, "no", "such.db"), onError: (m) => errors.push(m) });
  try {
    const expected = readFacts(store.db, query);
    expect(await reader.read(query)).toEqual(expected);
    expect(await reader.read(query)).toEqual(expected);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("reading them on the event loop");
  } finally {
    reader.close();
    store.close();
  }
});

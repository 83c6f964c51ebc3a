// The SQLite create and pay paths hold their statements (src/store/sqlite/statement.ts): after the
// first unit, a create or a payment neither prepares a statement nor looks one up by its text, and
// closing the store still closes the database.
import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { SqliteStore } from "../../src/store/sqlite/index.ts";
import { tempDir } from "../helpers.ts";
import { account, createUnit, merchant, newOrder, payUnit, T0 } from "../store-contract/harness.ts";

const dir = tempDir("xpay-prepared-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("creates and payments after the first prepare nothing and look nothing up by SQL text", async () => {
  const path = join(dir, "xpay.db");
  const store = SqliteStore.open(path);
  await merchant(store);
  await account(store, { day: 1_000_000 }); // a daily limit: the candidates read today's paid sum too
  const createAndPay = async (amount: number) => {
    const r = await store.createOrder(createUnit(newOrder({ amount }), { now: T0 }));
    if (r.kind !== "created") throw new Error(r.kind);
    expect((await store.payOrder(payUnit(r.order.tradeNo, T0 + 1))).kind).toBe("paid");
  };
  await createAndPay(1000); // the first prepares
  const proto = Database.prototype as unknown as Record<"prepare" | "query", (...a: unknown[]) => unknown>;
  const calls: string[] = [];
  const spies = (["prepare", "query"] as const).map((name) => {
    const original = proto[name]!;
    proto[name] = function (this: Database, ...a: unknown[]) {
      calls.push(`${name}: ${String(a[0]).slice(0, 60)}`);
      return original.apply(this, a);
    };
    return () => (proto[name] = original);
  });
  try {
    for (let i = 1; i <= 20; i++) await createAndPay(1000 + i * 20);
  } finally {
    for (const restore of spies) restore();
  }
  expect(calls).toEqual([]);
  // The held statements do not keep the connection open past close(): the last close checkpoints
  // and removes the write-ahead log (a held db.prepare statement left it, and the file a schema-less
  // main file to whoever copied it).
  store.close();
  expect(existsSync(`${path}-wal`)).toBe(false);
});

// Creates queued in one turn of the event loop share one write transaction (group commit); each
// runs in its own savepoint, so one that throws is rolled back alone and the others commit.
import { afterEach, beforeEach, expect, test } from "bun:test";
import type { CreateOrderUnit } from "../../src/core/store.ts";
import { harness, type Harness, seed } from "../helpers.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
});
afterEach(() => h.close());

function unit(out: string, allocate: CreateOrderUnit["allocate"] = null): CreateOrderUnit {
  const now = h.clock.now();
  return {
    order: { pid: 1001, outTradeNo: out, family: "native", payType: "alipay", name: "VIP", amount: 1000, notifyUrl: "", returnUrl: "", param: "", clientip: "", device: "pc", extra: {} },
    newTradeNo: () => `2026${Math.random().toString().slice(2, 18).padEnd(16, "0")}`,
    now, expireTime: now + 900, onExisting: () => ({ kind: "return" }), allocate,
  };
}

test("a unit that throws is rolled back alone; the units around it commit", async () => {
  const s = h.gw.store;
  const results = await Promise.allSettled([
    s.createOrder(unit("G1")),
    s.createOrder(unit("G2", () => { throw new Error("boom"); })),
    s.createOrder(unit("G3")),
  ]);
  expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  expect(await s.getOrderByOutTradeNo(1001, "G1")).not.toBeNull();
  expect(await s.getOrderByOutTradeNo(1001, "G2")).toBeNull();
  expect(await s.getOrderByOutTradeNo(1001, "G3")).not.toBeNull();
});

test("units of one batch see each other's writes: a repeated out_trade_no returns the first order", async () => {
  const s = h.gw.store;
  const [a, b] = await Promise.all([s.createOrder(unit("G4")), s.createOrder(unit("G4"))]);
  expect(a.kind).toBe("created");
  expect(b.kind).toBe("existing");
  if (a.kind !== "error" && b.kind !== "error") expect(b.order.tradeNo).toBe(a.order.tradeNo);
});

test("when SQLite rolls the whole batch back under one unit (a full disk), no unit after it runs outside the batch", async () => {
  // A full disk (SQLITE_FULL, here the file's page limit) met by a statement without a statement
  // journal of its own (a plain insert: no constraint, trigger or index can abort it half-way)
  // makes SQLite roll back the whole transaction, not the unit's savepoint. The units after it
  // then ran in autocommit, each committing on its own, while the batch's COMMIT failed and every
  // caller was told it failed: orders stored that their merchants were told were not.
  const s = h.gw.store;
  const db = (s as unknown as { db: import("bun:sqlite").Database }).db;
  db.exec("CREATE TABLE scratch (x TEXT)");
  const pages = (db.query("PRAGMA page_count").get() as { page_count: number }).page_count;
  db.exec(`PRAGMA max_page_count = ${pages + 64}`);
  const fills = unit("F2", () => {
    db.query("INSERT INTO scratch VALUES ($x)").run({ x: "x".repeat(2_000_000) });
    throw new Error("not reached: the insert fills the file");
  });
  const results = await Promise.allSettled([s.createOrder(unit("F1")), s.createOrder(fills), s.createOrder(unit("F3")), s.createOrder(unit("F4"))]);
  db.exec("PRAGMA max_page_count = 1073741823");
  const stored = await Promise.all(["F1", "F2", "F3", "F4"].map(async (o) => (await s.getOrderByOutTradeNo(1001, o)) !== null));
  // Every caller's answer matches what is stored: the batch is gone, and every caller was told so.
  expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected", "rejected"]);
  expect(stored).toEqual([false, false, false, false]);
  expect((results[1] as PromiseRejectedResult).reason.message).toContain("full");
  expect((results[2] as PromiseRejectedResult).reason.message).toContain("full");
  expect(db.inTransaction).toBe(false);
  // The store writes again once there is room.
  expect((await s.createOrder(unit("F5"))).kind).toBe("created");
});

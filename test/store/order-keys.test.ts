// Migration 041 on SQLite: new orders stored under a key that grows with each order, found by their
// public numbers (src/store/sqlite/order-keys.ts); orders stored before keep theirs and stay found.
import { afterEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ff1Digits } from "../../src/core/ff1.ts";
import { migrate } from "../../src/store/migrate.ts";
import { MIGRATIONS } from "../../src/store/migrations/index.ts";
import { SqliteStore } from "../../src/store/sqlite/index.ts";
import { forgetOrderKeys, knownStored, newStoredTradeNo, publicTradeNo, storedTradeNo } from "../../src/store/sqlite/order-keys.ts";
import { PUBLIC_TRADE_NO_SQL } from "../../src/store/trade-no.ts";
import { account, create, merchant, outboxOf, payUnit, T0 } from "../store-contract/harness.ts";

const dirs: string[] = [];
const file = () => {
  const d = mkdtempSync(join(tmpdir(), "xpay-order-keys-"));
  dirs.push(d);
  return join(d, "x.db");
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
// T0 is 2027-01-15 in China time.
const DAY = "20270115";

test("a new order is stored as day + its place + FF1 of its place under the database's key, and shown as day + FF1", async () => {
  const s = SqliteStore.open(file());
  await merchant(s);
  await account(s);
  const made: Awaited<ReturnType<typeof create>>[] = [];
  for (let i = 0; i < 5; i++) made.push(await create(s, { amount: 1000 + i, outTradeNo: `K${i}` }));
  const key = (s.db.query("SELECT key FROM order_number_key").get() as { key: Uint8Array }).key;
  expect(key).toHaveLength(16);
  const ff1 = ff1Digits(new Uint8Array(key));
  const stored = (s.db.query("SELECT trade_no, seq, rowid FROM orders ORDER BY rowid").all() as { trade_no: string; seq: number; rowid: number }[]);
  expect(stored.map((r) => r.trade_no)).toEqual([...stored.map((r) => r.trade_no)].sort()); // only grows
  stored.forEach((r, i) => {
    const place = String(r.seq).padStart(12, "0");
    expect(r.seq).toBe(r.rowid);
    expect(r.trade_no).toBe(DAY + place + ff1.encrypt(place));
    expect(publicTradeNo(r.trade_no)).toBe(made[i]!.tradeNo);
    expect(storedTradeNo(s.db, made[i]!.tradeNo)).toBe(r.trade_no);
  });
  for (const o of made) expect((await s.getOrder(o.tradeNo))?.outTradeNo).toBe(o.outTradeNo);
  // The outbox and the reports store the same key; everything read back shows the public number.
  const paid = await s.payOrder({ ...payUnit(made[0]!.tradeNo), outbox: outboxOf });
  expect(paid.kind).toBe("paid");
  expect((s.db.query("SELECT trade_no FROM notifications").get() as { trade_no: string }).trade_no).toBe(stored[0]!.trade_no);
  expect((await s.getNotification(made[0]!.tradeNo))?.tradeNo).toBe(made[0]!.tradeNo);
  expect((s.db.query(`SELECT ${PUBLIC_TRADE_NO_SQL} AS t FROM orders WHERE rowid = 1`).get() as { t: string }).t).toBe(made[0]!.tradeNo);
  // Another database draws another key: the same places make other numbers.
  const other = SqliteStore.open(file());
  await merchant(other);
  await account(other);
  const theirs = await create(other, { amount: 1000, outTradeNo: "K0" });
  expect(theirs.tradeNo).not.toBe(made[0]!.tradeNo);
  expect(await other.getOrder(made[0]!.tradeNo)).toBeNull();
  s.close();
  other.close();
});

test("places encrypted ahead give the key each place makes alone: in order, across passes, backwards and where places gain a digit", async () => {
  const s = SqliteStore.open(file());
  const ff1 = ff1Digits(new Uint8Array((s.db.query("SELECT key FROM order_number_key").get() as { key: Uint8Array }).key));
  const alone = (seq: number) => {
    const place = String(seq).padStart(12, "0");
    return DAY + place + ff1.encrypt(place);
  };
  const seqs = [
    ...Array.from({ length: 200 }, (_, i) => i + 1), // three passes and part of a fourth
    5, 130, 129, 64, 65, // behind and inside passes already made (a rolled-back place is taken again)
    ...Array.from({ length: 20 }, (_, i) => 999_999_999_990 + i), // a pass cut where the places gain a digit
    999_999_999_995,
    1,
  ];
  for (const seq of seqs) expect(newStoredTradeNo(s.db, DAY, seq)).toBe(alone(seq));
  expect(newStoredTradeNo(s.db, DAY, 1_000_000_000_003)).toHaveLength(34);
  for (const seq of [1, 64, 1_000_000_000_003]) expect(storedTradeNo(s.db, publicTradeNo(newStoredTradeNo(s.db, DAY, seq)!))).toBe(newStoredTradeNo(s.db, DAY, seq)!);
  s.close();
});

test("a number nobody was given is not found, whatever its digits", async () => {
  const s = SqliteStore.open(file());
  await merchant(s);
  await account(s);
  const o = await create(s, { amount: 1000 });
  const digits = Number(o.tradeNo.slice(8));
  for (const wrong of [`${DAY}${String((digits + 1) % 1e12).padStart(12, "0")}`, `20270116${o.tradeNo.slice(8)}`, `${DAY}000000000000`, "x", o.tradeNo.slice(0, 19)]) {
    expect(await s.getOrder(wrong)).toBeNull();
  }
  s.close();
});

test("orders stored before 041 keep their numbers and are found; a new order of their day never takes one of them", async () => {
  const path = file();
  const db = new Database(path, { create: true, strict: true });
  migrate(db, MIGRATIONS.filter((m) => m.version <= 40));
  db.exec("INSERT INTO merchants (pid, name, secret, created_at) VALUES (1001, 'Shop', 'secret-1001', 0)");
  const insert = db.query("INSERT INTO orders (trade_no, pid, out_trade_no, family, name, amount, status, created_at, expire_time) VALUES (?, 1001, ?, 'native', 'VIP', 1000, 1, ?, ?)");
  const old = [`${DAY}123456789012`, `20270114999999999999`];
  old.forEach((t, i) => insert.run(t, `OLD${i}`, T0 - 10, T0 + 900));
  db.close();
  const s = SqliteStore.open(path); // migrates to 041: the newest key so far marks the last such day
  expect(s.db.query("SELECT legacy_through FROM order_number_key").get()).toEqual({ legacy_through: DAY });
  for (const t of old) expect((await s.getOrder(t))?.tradeNo).toBe(t);
  // Their day: a place whose number is an old order's is skipped (the key made to collide here).
  await account(s);
  const key = (s.db.query("SELECT key FROM order_number_key").get() as { key: Uint8Array }).key;
  const ff1 = ff1Digits(new Uint8Array(key));
  const next = (s.db.query("SELECT MAX(rowid) + 1 AS n FROM orders").get() as { n: number }).n;
  s.db.query("INSERT INTO orders (trade_no, pid, out_trade_no, family, name, amount, status, created_at, expire_time) VALUES (?, 1001, 'TAKEN', 'native', 'VIP', 1000, 4, ?, ?)")
    .run(DAY + ff1.encrypt(String(next + 1).padStart(12, "0")), T0 - 10, T0 - 5);
  const a = await create(s, { amount: 1100, outTradeNo: "NEW-A" });
  const b = await create(s, { amount: 1200, outTradeNo: "NEW-B" });
  expect(new Set([a.tradeNo, b.tradeNo, ...old, DAY + ff1.encrypt(String(next + 1).padStart(12, "0"))]).size).toBe(5);
  expect((await s.getOrder(a.tradeNo))?.outTradeNo).toBe("NEW-A");
  expect((await s.getOrder(b.tradeNo))?.outTradeNo).toBe("NEW-B");
  expect((await s.getOrder(DAY + ff1.encrypt(String(next + 1).padStart(12, "0"))))?.outTradeNo).toBe("TAKEN");
  s.close();
});

test("a stored key read from a row is given back for its public number without a decryption; never for a day that may hold numbers stored as they are", async () => {
  const s = SqliteStore.open(file());
  await merchant(s);
  await account(s);
  const o = await create(s, { amount: 1000 });
  const stored = storedTradeNo(s.db, o.tradeNo);
  expect(stored).toHaveLength(32);
  // Place 999999999999 with the digits of another place: no decryption gives this key, only the kept one does.
  const made = DAY + "999999999999" + stored.slice(20);
  expect(publicTradeNo(made)).toBe(o.tradeNo);
  knownStored(s.db, made);
  expect(storedTradeNo(s.db, o.tradeNo)).toBe(made);
  forgetOrderKeys(s.db); // the keys read again (after a copy): nothing kept
  expect(storedTradeNo(s.db, o.tradeNo)).toBe(stored);
  // A day up to legacy_through may hold an order stored under its public number: such keys are not kept.
  s.db.query("UPDATE order_number_key SET legacy_through = $d").run({ d: DAY });
  forgetOrderKeys(s.db);
  knownStored(s.db, made);
  expect(storedTradeNo(s.db, o.tradeNo)).toBe(stored);
  // Past the bound the keys kept start again: of 5 000 keys kept one after another, the first 4 096
  // are dropped when the 4 097th comes, the rest answer; every other number gets the decryption's key.
  s.db.query("UPDATE order_number_key SET legacy_through = '00000000'").run();
  forgetOrderKeys(s.db);
  const places = Array.from({ length: 5000 }, (_, i) => newStoredTradeNo(s.db, DAY, i + 1)!);
  const planted = places.map((k) => DAY + "999999999999" + k.slice(20));
  for (const k of planted) knownStored(s.db, k);
  const sample = [0, 1, 2048, 4094, 4095, 4096, 4097, 4500, 4999];
  expect(sample.map((i) => storedTradeNo(s.db, publicTradeNo(places[i]!)))).toEqual(sample.map((i) => (i < 4096 ? places[i]! : planted[i]!)));
  s.close();
});

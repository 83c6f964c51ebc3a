// The allocator's slot search reads a range two ways (store/sqlite/channels.ts takenTradeAmounts):
// a walk of its orders while it holds at most WALK_PER_AMOUNT an amount, else a lookup of each
// amount. On random orders, sparse and dense amounts in every state, every way answers what a check of each
// order against the rule (HELD_UNTIL >= since, as written in slots.ts) answers.
import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { WALK_PER_AMOUNT } from "../../src/core/allocation.ts";
import { migrate } from "../../src/store/migrate.ts";
import { DENSE_READS, denseReadsLeft, takenTradeAmounts } from "../../src/store/sqlite/channels.ts";

test("walked or looked up, the taken amounts are the held orders' amounts", () => {
  const db = new Database(":memory:", { strict: true });
  migrate(db);
  db.exec("INSERT INTO merchants (pid, name, secret, created_at) VALUES (1001, 'Shop', 'secret', 0)");
  for (const id of [1, 2]) db.query("INSERT INTO channel_accounts (id, pid, pay_type, code, name, qrcode, created_at) VALUES ($id, 0, 'alipay', $code, 'A', 'https://qr.alipay.com/x', 0)").run({ id, code: `a${id}` });
  let seed = 7;
  const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  const insert = db.query(`INSERT INTO orders (trade_no, pid, out_trade_no, family, pay_type, name, amount, trade_amount, account_id, status, created_at, expire_time, paid_at, closed_at)
    VALUES ($t, 1001, $t, 'native', 'alipay', 'VIP', 1000, $ta, $a, $s, 0, $e, $p, $c)`);
  const orders: { a: number; ta: number; s: number; e: number; p: number | null; c: number | null }[] = [];
  for (let i = 0; i < 3000; i++) {
    // Half the orders on three amounts (a shop's prices), the rest spread over 900 amounts.
    const ta = i % 2 === 0 ? 1000 + rnd(3) : 1000 + rnd(900);
    const s = 1 + rnd(5);
    const e = rnd(2000);
    const o = { a: 1 + rnd(2), ta, s, e, p: s === 2 ? e - rnd(100) : null, c: s === 3 ? e - rnd(100) : null };
    orders.push(o);
    insert.run({ t: `T${i}`, ta: o.ta, a: o.a, s: o.s, e: o.e, p: o.p, c: o.c });
  }
  const heldUntil = (o: (typeof orders)[number]) => (o.s === 1 || o.s === 4 ? o.e : o.s === 3 ? o.c : o.s === 2 ? o.p : null);
  let walkedSome = false;
  let lookedUpSome = false;
  for (let k = 0; k < 200; k++) {
    const account = 1 + rnd(2);
    const since = rnd(2000);
    const min = 995 + rnd(40);
    const range = { min, max: min + rnd(60) };
    const want = new Set(orders.filter((o) => o.a === account && o.ta >= range.min && o.ta <= range.max && (heldUntil(o) ?? -1) >= since).map((o) => o.ta));
    const inRange = orders.filter((o) => o.a === account && o.ta >= range.min && o.ta <= range.max).length;
    if (inRange < WALK_PER_AMOUNT * (range.max - range.min + 1)) walkedSome = true;
    else lookedUpSome = true;
    expect([...takenTradeAmounts(db, [account], since, range)].sort()).toEqual([...want].sort());
    // From either end: every held amount up to the first free one, and that one free.
    for (const first of [range.min, range.max]) {
      const step = first === range.min ? 1 : -1;
      const got = takenTradeAmounts(db, [account], since, range, first);
      let x = first;
      for (; x >= range.min && x <= range.max && want.has(x); x += step) expect(got.has(x)).toBe(true);
      if (x >= range.min && x <= range.max) expect(got.has(x)).toBe(false);
    }
  }
  expect(walkedSome && lookedUpSome).toBe(true);
  // A report group of both accounts, one range dense and one not: the first free amount is the one no member holds.
  for (let k = 0; k < 100; k++) {
    const since = rnd(2000);
    const min = 995 + rnd(40);
    const range = { min, max: min + rnd(60) };
    const held = (x: number) => orders.some((o) => o.ta === x && (heldUntil(o) ?? -1) >= since);
    for (const first of [range.min, range.max]) {
      const step = first === range.min ? 1 : -1;
      let want = first;
      while (want >= range.min && want <= range.max && held(want)) want += step;
      const got = takenTradeAmounts(db, [1, 2], since, range, first);
      let x = first;
      while (x >= range.min && x <= range.max && got.has(x)) x += step;
      expect(x).toBe(want);
    }
  }
});

test("a range found too dense to walk is looked up directly, and walked again later, with the same answers", () => {
  const db = new Database(":memory:", { strict: true });
  migrate(db);
  db.exec("INSERT INTO merchants (pid, name, secret, created_at) VALUES (1001, 'Shop', 'secret', 0)");
  db.exec("INSERT INTO channel_accounts (id, pid, pay_type, code, name, qrcode, created_at) VALUES (1, 0, 'alipay', 'a1', 'A', 'https://qr.alipay.com/x', 0)");
  const insert = db.query(`INSERT INTO orders (trade_no, pid, out_trade_no, family, pay_type, name, amount, trade_amount, account_id, status, created_at, expire_time, paid_at)
    VALUES ($t, 1001, $t, 'native', 'alipay', 'VIP', 1000, $ta, 1, $s, 0, $e, $p)`);
  const range = { min: 1000, max: 1003 };
  // A shop's one price: 1000 and 1001 paid long ago, many times over; nothing held.
  for (let i = 0; i < WALK_PER_AMOUNT * 4 + 5; i++) insert.run({ t: `H${i}`, ta: 1000 + (i % 2), s: 2, e: 100, p: 50 });
  const taken = (since: number) => [...takenTradeAmounts(db, [1], since, range)].sort();
  expect(denseReadsLeft(db, 1, range)).toBeUndefined();
  expect(taken(1000)).toEqual([]);
  expect(denseReadsLeft(db, 1, range)).toBe(DENSE_READS);
  // Marked: new holds are still seen (lookups), and the mark counts down.
  insert.run({ t: "P1", ta: 1002, s: 1, e: 5000, p: null });
  expect(taken(1000)).toEqual([1002]);
  expect(denseReadsLeft(db, 1, range)).toBe(DENSE_READS - 1);
  expect(taken(40)).toEqual([1000, 1001, 1002]);
  // The history goes (retention): the lookups still answer right while the mark lasts, and the
  // range is walked again, and unmarked, once it runs out.
  db.exec("DELETE FROM orders WHERE trade_no LIKE 'H%'");
  for (let i = denseReadsLeft(db, 1, range)!; i > 0; i--) expect(taken(1000)).toEqual([1002]);
  expect(denseReadsLeft(db, 1, range)).toBe(0);
  expect(taken(1000)).toEqual([1002]);
  expect(denseReadsLeft(db, 1, range)).toBeUndefined();
  // A report group whose other member is walked (few orders): an amount only it holds does not
  // end the looked-up run; the first free amount is the first that neither holds, from either end.
  db.exec("INSERT INTO channel_accounts (id, pid, pay_type, code, name, qrcode, created_at) VALUES (2, 0, 'alipay', 'a2', 'B', 'https://qr.alipay.com/y', 0)");
  for (let i = 0; i < WALK_PER_AMOUNT * 8; i++) insert.run({ t: `G${i}`, ta: 1000 + (i % 6), s: 2, e: 100, p: 50 });
  insert.run({ t: "P2", ta: 1003, s: 1, e: 5000, p: null });
  insert.run({ t: "P3", ta: 1005, s: 1, e: 5000, p: null });
  const other = db.query(`INSERT INTO orders (trade_no, pid, out_trade_no, family, pay_type, name, amount, trade_amount, account_id, status, created_at, expire_time)
    VALUES ($t, 1001, $t, 'native', 'alipay', 'VIP', 1000, $ta, 2, 1, 0, 5000)`);
  other.run({ t: "B1", ta: 1004 });
  other.run({ t: "B2", ta: 1000 });
  const wide = { min: 1000, max: 1007 };
  const firstFree = (first: number, step: number) => {
    const got = takenTradeAmounts(db, [1, 2], 1000, wide, first);
    let x = first;
    while (got.has(x)) x += step;
    return x;
  };
  expect(firstFree(1000, 1)).toBe(1001); // 1000: B; 1001: nobody
  db.exec("UPDATE orders SET status = 1, expire_time = 5000 WHERE trade_no = 'G1'"); // 1001 held by A now
  expect(firstFree(1000, 1)).toBe(1006); // 1000 B, 1001 A, 1002 A (P1), 1003 A, 1004 B, 1005 A
  expect(firstFree(1007, -1)).toBe(1007);
  expect(denseReadsLeft(db, 1, wide)).toBeDefined();
  expect(denseReadsLeft(db, 2, wide)).toBeUndefined();
  // Another connection's marks are its own.
  const elsewhere = new Database(":memory:", { strict: true });
  expect(denseReadsLeft(elsewhere, 1, range)).toBeUndefined();
});

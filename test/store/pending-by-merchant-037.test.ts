// Migration 037 on SQLite: the outbox rows keep their merchant (backfilled from their orders, and
// filled in for a row inserted without it), and the notifier's fair claim reads each merchant's
// share on the pending rows' index instead of every due row: its plan seeks, and one merchant's
// backlog neither hides another merchant's row nor changes which of its own rows come first.
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../src/store/db.ts";
import { migrate } from "../../src/store/migrate.ts";
import { MIGRATIONS } from "../../src/store/migrations/index.ts";
import { SqliteStore } from "../../src/store/sqlite/index.ts";
import { claimDue, FAIR_CANDIDATES_SQL } from "../../src/store/sqlite/outbox.ts";
import { tempDir } from "../helpers.ts";

const dir = tempDir("xpay-037-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NOW_MS = 1_800_000_000_000;

/** An order of `pid` and its outbox row, written as a version-36 database holds them. */
function outboxRow(db: Database, pid: number, n: number, due: number, status = "pending") {
  const t = `T${pid}-${n}`;
  db.query("INSERT INTO orders (trade_no, pid, out_trade_no, family, name, amount, status, created_at, expire_time) VALUES (?, ?, ?, 'native', 'x', 100, 2, 1, 2)").run(t, pid, `O${n}`);
  db.query("INSERT INTO notifications (trade_no, family, url, method, params, status, next_attempt_at, created_at) VALUES (?, 'native', ?, 'POST', '{}', ?, ?, 1)").run(t, `http://shop${pid}.example/n`, status, due);
}

function older(path: string): Database {
  const db = openDatabase(path);
  migrate(db, MIGRATIONS.filter((m) => m.version < 37));
  for (const pid of [1001, 1002, 1003]) db.query("INSERT INTO merchants (pid, name, secret, created_at) VALUES (?, 'Shop', 'secret-of-the-shop-0123', 1)").run(pid);
  return db;
}

test("the rows written before 037 get their order's merchant, and a row inserted without one gets it too", () => {
  const path = join(dir, "backfill.db");
  const db = older(path);
  outboxRow(db, 1001, 1, NOW_MS);
  outboxRow(db, 1002, 2, NOW_MS, "delivered"); // a replay may make it pending again
  db.close();
  SqliteStore.open(path).close(); // migrates
  const after = new Database(path);
  outboxRow(after, 1003, 3, NOW_MS); // an older tool's insert, without the column
  expect(after.query("SELECT trade_no, pid FROM notifications ORDER BY id").all()).toEqual([
    { trade_no: "T1001-1", pid: 1001 },
    { trade_no: "T1002-2", pid: 1002 },
    { trade_no: "T1003-3", pid: 1003 },
  ]);
  after.close();
});

test("the fair claim seeks each merchant's pending rows: its share in due order, whatever the backlog", () => {
  const path = join(dir, "claim.db");
  older(path).close();
  const db = openDatabase(path);
  migrate(db);
  // Merchant 1001 has 3 000 rows due (its endpoint was down); 1002 one row, due last; 1003 one not due yet.
  db.transaction(() => {
    for (let i = 0; i < 3000; i++) outboxRow(db, 1001, i, NOW_MS - 100_000 + i);
    outboxRow(db, 1002, 0, NOW_MS - 1);
    outboxRow(db, 1003, 0, NOW_MS + 60_000);
  })();
  const plan = (db.query(`EXPLAIN QUERY PLAN ${FAIR_CANDIDATES_SQL}`).all() as { detail: string }[]).map((r) => r.detail);
  expect(plan.filter((d) => d.includes("notifications_due"))).toEqual([]);
  expect(plan.filter((d) => d.includes("notifications_pending_by_pid")).length).toBe(3);
  const seen: { id: number; pid: number }[] = [];
  const leased = claimDue(db, NOW_MS, 100, 60_000, { perMerchant: 4, admit: (c) => (seen.push({ id: c.id, pid: c.pid }), true) });
  // 1001's four earliest, then 1002's: the backlog past a merchant's share is not even read.
  expect(seen.map((c) => c.pid)).toEqual([1001, 1001, 1001, 1001, 1002]);
  expect(leased.map((n) => n.tradeNo)).toEqual(["T1001-0", "T1001-1", "T1001-2", "T1001-3", "T1002-0"]);
  // Leased rows are passed over: the next pass takes the next four, and 1002 has nothing left due.
  const next = claimDue(db, NOW_MS, 100, 60_000, { perMerchant: 4, admit: () => true });
  expect(next.map((n) => n.tradeNo)).toEqual(["T1001-4", "T1001-5", "T1001-6", "T1001-7"]);
  // A refused row stays as it was, due and unleased.
  expect(claimDue(db, NOW_MS, 100, 60_000, { perMerchant: 4, admit: () => false })).toEqual([]);
  expect((db.query("SELECT claimed_until FROM notifications WHERE trade_no = 'T1001-8'").get() as { claimed_until: number }).claimed_until).toBe(0);
  db.close();
});

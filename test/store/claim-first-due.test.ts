// The SQLite claim reads the first `perMerchant` due rows before the walk by merchant (037's
// FAIR_CANDIDATES), and walks only when as many came back. Whatever the outbox holds, the fair-share
// rule must be asked about the same rows in the same order as by the walk alone, and the same rows
// leased: checked here against the walk on random outboxes, with the worker's own rule.
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../src/store/db.ts";
import { migrate } from "../../src/store/migrate.ts";
import { claimDue, FAIR_CANDIDATES_SQL, FIRST_DUE_SQL } from "../../src/store/sqlite/outbox.ts";
import { tempDir } from "../helpers.ts";
import { claimCase, dueCount, NOW_MS, PIDS, rule, walkAlone } from "./claim-cases.ts";

const dir = tempDir("xpay-first-due-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the first due rows, then the walk only if as many came back: the rule asked about the same rows in the same order, the same rows leased", () => {
  const db = openDatabase(join(dir, "claim.db"));
  migrate(db);
  for (const pid of PIDS) db.query("INSERT INTO merchants (pid, name, secret, created_at) VALUES (?, 'Shop', 'secret-of-the-shop-0123', 1)").run(pid);
  const walk = db.query(FAIR_CANDIDATES_SQL);
  let walked = 0;
  for (let seed = 1; seed <= 400; seed++) {
    const c = claimCase(seed);
    db.transaction(() => {
      db.run("DELETE FROM notifications");
      db.run("DELETE FROM orders");
      for (const r of c.rows) {
        db.query("INSERT INTO orders (trade_no, pid, out_trade_no, family, name, amount, status, created_at, expire_time) VALUES (?, ?, ?, 'native', 'x', 100, 2, 1, 2)").run(r.tradeNo, r.pid, r.tradeNo);
        db.query("INSERT INTO notifications (trade_no, pid, family, url, method, params, status, next_attempt_at, claimed_until, created_at) VALUES (?, ?, 'native', ?, 'POST', '{}', ?, ?, ?, 1)").run(
          r.tradeNo, r.pid, r.url, r.status, r.due, r.claimedUntil,
        );
      }
    })();
    const expected = walkAlone(c, walk.all({ now: NOW_MS, per: c.caps.perMerchant }) as { id: number; pid: number; url: string }[]);
    const now = rule(c);
    const leased = claimDue(db, NOW_MS, c.limit, 60_000, { perMerchant: c.caps.perMerchant, admit: now.admit });
    expect({ seed, asked: now.asked, leased: leased.map((n) => n.id).sort((a, b) => a - b) }).toEqual({ seed, ...expected });
    if (dueCount(c) >= c.caps.perMerchant) walked++;
  }
  // Both paths were taken, often.
  expect(walked).toBeGreaterThan(50);
  expect(400 - walked).toBeGreaterThan(50);
  db.close();
});

test("the first due rows are read on the due index, in its order (no sort)", () => {
  const db = openDatabase(join(dir, "plan.db"));
  migrate(db);
  const plan = (db.query(`EXPLAIN QUERY PLAN ${FIRST_DUE_SQL}`).all() as { detail: string }[]).map((r) => r.detail);
  expect(plan).toEqual([expect.stringContaining("USING INDEX notifications_due (status=? AND next_attempt_at<?)")]);
  db.close();
});

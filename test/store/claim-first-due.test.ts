// The SQLite claim reads the first `perMerchant` due rows before the walk by merchant (037's
// FAIR_CANDIDATES), and goes on to the walk only when there may be more. Whatever the outbox holds,
// the fair-share rule must be asked about the same rows in the same order as by the walk alone, and
// the same rows leased: checked here against the walk on random outboxes, with the worker's own rule.
import type { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { type Caps, InFlight } from "../../src/core/notify/fairness.ts";
import { openDatabase } from "../../src/store/db.ts";
import { migrate } from "../../src/store/migrate.ts";
import { claimDue, FAIR_CANDIDATES_SQL, FIRST_DUE_SQL } from "../../src/store/sqlite/outbox.ts";
import { tempDir } from "../helpers.ts";

const dir = tempDir("xpay-first-due-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NOW_MS = 1_800_000_000_000;
const PIDS = [1001, 1002, 1003, 1004, 1005];
const URLS = ["http://a.example/n", "http://b.example/n", "http://c.example:8080/n"];

/** A small seeded generator, so a failing case can be run again from its seed. */
function random(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) / 4294967296) * n;
  };
}

function outbox(db: Database, rnd: (n: number) => number) {
  const rows = Math.floor(rnd(40));
  db.transaction(() => {
    db.run("DELETE FROM notifications");
    db.run("DELETE FROM orders");
    for (let i = 0; i < rows; i++) {
      const t = `T${i}`;
      const pid = PIDS[Math.floor(rnd(PIDS.length))]!;
      // Mostly pending; due in the last minute or not yet; some leased; ties in due time on purpose.
      const status = rnd(1) < 0.8 ? "pending" : rnd(1) < 0.5 ? "delivered" : "failed";
      const due = NOW_MS - 60_000 + Math.floor(rnd(8)) * 10_000;
      const claimed = rnd(1) < 0.2 ? NOW_MS + 60_000 : rnd(1) < 0.1 ? NOW_MS - 1 : 0;
      db.query("INSERT INTO orders (trade_no, pid, out_trade_no, family, name, amount, status, created_at, expire_time) VALUES (?, ?, ?, 'native', 'x', 100, 2, 1, 2)").run(t, pid, t);
      db.query("INSERT INTO notifications (trade_no, pid, family, url, method, params, status, next_attempt_at, claimed_until, created_at) VALUES (?, ?, 'native', ?, 'POST', '{}', ?, ?, ?, 1)").run(
        t, pid, URLS[Math.floor(rnd(URLS.length))]!, status, due, claimed,
      );
    }
  })();
}

/** The worker's rule (notify/fairness.ts) with some shares already taken by attempts in flight. */
function rule(rnd: (n: number) => number, caps: Caps) {
  const shares = new InFlight();
  const busy = Math.floor(rnd(6));
  for (let i = 0; i < busy; i++) shares.admit(-1 - i, PIDS[Math.floor(rnd(PIDS.length))]!, URLS[Math.floor(rnd(URLS.length))]!, caps);
  const asked: number[] = [];
  return { asked, admit: (c: { id: number; pid: number; url: string }) => (asked.push(c.id), shares.admit(c.id, c.pid, c.url, caps)) };
}

test("the first due rows, then the walk only if there may be more: the rule asked about the same rows in the same order, the same rows leased", () => {
  const db = openDatabase(join(dir, "claim.db"));
  migrate(db);
  for (const pid of PIDS) db.query("INSERT INTO merchants (pid, name, secret, created_at) VALUES (?, 'Shop', 'secret-of-the-shop-0123', 1)").run(pid);
  const walk = db.query(FAIR_CANDIDATES_SQL);
  let walked = 0;
  let firstOnly = 0;
  for (let seed = 1; seed <= 400; seed++) {
    const rnd = random(seed);
    outbox(db, rnd);
    const caps: Caps = { perMerchant: 1 + Math.floor(rnd(6)), perTarget: 1 + Math.floor(rnd(8)) };
    const limit = 1 + Math.floor(rnd(20));
    const ruleSeed = Math.floor(rnd(1e9));

    // The walk alone, as the claim read before: asked in its order until the pass is full.
    const before = rule(random(ruleSeed), caps);
    const expected: number[] = [];
    for (const c of walk.all({ now: NOW_MS, per: caps.perMerchant }) as { id: number; pid: number; url: string }[]) {
      if (expected.length >= limit) break;
      if (before.admit(c)) expected.push(c.id);
    }

    const now = rule(random(ruleSeed), caps);
    const leased = claimDue(db, NOW_MS, limit, 60_000, { perMerchant: caps.perMerchant, admit: now.admit });
    const context = `seed ${seed}`;
    expect({ context, asked: now.asked }).toEqual({ context, asked: before.asked });
    expect({ context, leased: leased.map((n) => n.id).sort((a, b) => a - b) }).toEqual({ context, leased: expected.sort((a, b) => a - b) });
    const due = db.query("SELECT COUNT(*) AS n FROM notifications WHERE status = 'pending' AND next_attempt_at <= $now AND claimed_until <= $now").get({ now: NOW_MS }) as { n: number };
    if (due.n + leased.length >= caps.perMerchant) walked++;
    else firstOnly++;
  }
  console.log(`${walked} cases walked, ${firstOnly} read the first rows only`);
  // Both paths were taken, often.
  expect(walked).toBeGreaterThan(50);
  expect(firstOnly).toBeGreaterThan(50);
  db.close();
});

test("the first due rows are read on the due index, in its order (no sort)", () => {
  const db = openDatabase(join(dir, "plan.db"));
  migrate(db);
  const plan = (db.query(`EXPLAIN QUERY PLAN ${FIRST_DUE_SQL}`).all() as { detail: string }[]).map((r) => r.detail);
  expect(plan).toEqual([expect.stringContaining("USING INDEX notifications_due (status=? AND next_attempt_at<?)")]);
  db.close();
});

// bun bench/claim-backlog.ts [CHECKOUT ...]: what one pass of the notifier's fair claim costs when
// one merchant has a backlog of due notifications (its endpoint was down, and its retries all fell
// due), beside three merchants with one due row each. Each checkout opens its own store on a fresh
// database with its own migrations (so an older checkout runs on its own schema), the rows are
// written straight into the tables, and a pass that admits nothing (the merchant's share is full,
// as while its attempts are in flight) is timed ROUNDS times: the median, in µs, per backlog.
// The pass runs on the event loop that answers creates and reports (SQLite) or on the server
// (PostgreSQL, BENCH_PG=1, a throwaway cluster, a database per checkout and backlog size).
import { SQL } from "bun";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startCluster } from "../test/pg/cluster.ts";
import { percentile } from "./lib.ts";

const BACKLOGS = (process.env.BACKLOGS ?? "0,1000,10000,50000").split(",").map(Number);
const ROUNDS = Number(process.env.ROUNDS ?? 30);
const PG = process.env.BENCH_PG === "1";
const roots = process.argv.slice(2).map((p) => resolve(p));
if (roots.length === 0) roots.push(resolve(import.meta.dir, ".."));
const NOW_MS = Date.now();
const dir = mkdtempSync(join(tmpdir(), "xpay-claim-backlog-"));

type Claimer = { claimDueNotifications(now: number, limit: number, lease: number, fair: { perMerchant: number; admit: () => boolean }): Promise<unknown[]> };

/** `backlog` due rows of merchant 1001, one due row of each of 1002-1004, in one statement per table. */
const ORDERS = `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < $count + 3)
  INSERT INTO orders (trade_no, pid, out_trade_no, family, name, amount, status, created_at, expire_time)
  SELECT 'B' || i, CASE WHEN i < $count THEN 1001 ELSE 1002 + i - $count END, 'O' || i, 'native', 'x', 100, 2, 1, 2 FROM n`;
const OUTBOX = `INSERT INTO notifications (trade_no, family, url, method, params, next_attempt_at, created_at)
  SELECT trade_no, 'native', 'http://shop.example/n', 'POST', '{}', $now - 100000 + CAST(substr(trade_no, 2) AS INTEGER) % 100000, 1 FROM orders`;

async function pass(store: Claimer): Promise<number> {
  const t = performance.now();
  await store.claimDueNotifications(NOW_MS, 128, 60_000, { perMerchant: 16, admit: () => false });
  return (performance.now() - t) * 1000;
}

async function timed(store: Claimer): Promise<number> {
  for (let i = 0; i < 3; i++) await pass(store); // prepared, cached
  const us: number[] = [];
  for (let i = 0; i < ROUNDS; i++) us.push(await pass(store));
  return percentile(us.sort((a, b) => a - b), 50);
}

async function sqliteArm(root: string, backlog: number): Promise<number> {
  const { SqliteStore } = await import(join(root, "src/store/sqlite/index.ts"));
  const path = join(dir, `${roots.indexOf(root)}-${backlog}.db`);
  SqliteStore.open(path).close(); // its migrations
  const db = new Database(path);
  db.transaction(() => {
    for (const pid of [1001, 1002, 1003, 1004]) db.query("INSERT INTO merchants (pid, name, secret, created_at) VALUES (?, 'Shop', 'secret-of-the-shop-0123', 1)").run(pid);
    db.query(ORDERS).run({ $count: backlog });
    db.query(OUTBOX).run({ $now: NOW_MS });
  })();
  db.close();
  const store = SqliteStore.open(path);
  try {
    return await timed(store);
  } finally {
    store.close();
  }
}

async function pgArm(cluster: Awaited<ReturnType<typeof startCluster>>, root: string, backlog: number): Promise<number> {
  const { PostgresStore } = await import(join(root, "src/store/postgres/index.ts"));
  const url = await cluster.createDatabase(`claim_${roots.indexOf(root)}_${backlog}`);
  const first = PostgresStore.open(url);
  await first.ready; // its migrations
  await first.end();
  const sql = new SQL(url, { max: 1 });
  for (const pid of [1001, 1002, 1003, 1004]) await sql`INSERT INTO merchants (pid, name, secret, created_at) VALUES (${pid}, 'Shop', 'secret-of-the-shop-0123', 1)`;
  await sql.unsafe(ORDERS.replace(/\$count/g, String(backlog)).replace("SELECT 0 UNION", "SELECT 0::bigint UNION").replace(/'B' \|\| i/, "'B' || i::text").replace(/'O' \|\| i/, "'O' || i::text"));
  await sql.unsafe(OUTBOX.replace("$now", String(NOW_MS)).replace("CAST(substr(trade_no, 2) AS INTEGER)", "CAST(substr(trade_no, 2) AS BIGINT)"));
  await sql`ANALYZE`;
  await sql.close();
  const store = PostgresStore.open(url);
  await store.ready;
  try {
    return await timed(store);
  } finally {
    await store.end();
  }
}

const cluster = PG ? await startCluster() : null;
const rows: string[] = [];
try {
  for (const backlog of BACKLOGS) {
    const cells: string[] = [];
    for (const root of roots) cells.push((await sqliteArm(root, backlog)).toFixed(0));
    if (cluster) for (const root of roots) cells.push((await pgArm(cluster, root, backlog)).toFixed(0));
    rows.push(`| ${backlog} | ${cells.join(" | ")} |`);
    console.error(`[bench:claim-backlog] backlog ${backlog}: ${cells.join(" / ")} µs`);
  }
} finally {
  cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
}
const heads = [...roots.map((r) => `SQLite ${r}`), ...(cluster ? roots.map((r) => `PostgreSQL ${r}`) : [])];
console.log(`one fair claim pass (admits nothing), median of ${ROUNDS}, µs; merchant 1001's due rows, beside three merchants with one each\n`);
console.log(`| due rows of 1001 | ${heads.join(" | ")} |`);
console.log(`|---:|${heads.map(() => "---:").join("|")}|`);
for (const r of rows) console.log(r);

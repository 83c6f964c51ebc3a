// bun bench/hot-price.ts [CHECKOUT ...]: CPU per native create when a shop sells at one price and
// its amounts have gathered ended orders. Each checkout's gateway (its own module graph, its own
// seeded database, bench/seed.ts of that checkout) gets HISTORY orders paid weeks ago at 10.00-10.04
// yuan, spread over the accounts, as a shop with one plan has after a while; then rounds of BATCH
// creates at 10.00 (CONCURRENCY in flight, so the group commit batches them as under load) go
// through app.handle, the checkouts alternated. After each batch its orders are marked paid weeks
// ago too (not measured), so every round starts with no order pending, as in a shop whose orders
// get paid, and the history grows by BATCH a round. Prints the CPU time of this process per create
// and the creates a second (wall time of the batches): median and range over ROUNDS rounds per
// checkout. HISTORY=0 is the same shop on its first day. SETTLE=0 leaves each batch pending (a
// busy hour at that price: the nearest amounts fill and creates read past them; ROUNDS=8 stays
// under the 16 accounts' 1 616 amounts at a 10 % offset bound). BENCH_PG=1: the same on a throwaway
// PostgreSQL cluster, a database per checkout (there the creates a second are what to compare:
// PostgreSQL's own CPU is not this process's).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { SQL } from "bun";
import { Database } from "bun:sqlite";
import { startCluster } from "../test/pg/cluster.ts";
import { createMeter } from "./create-cpu.ts";

const HISTORY = Number(process.env.HISTORY ?? 400_000);
const ROUNDS = Number(process.env.ROUNDS ?? 9);
const BATCH = Number(process.env.BATCH ?? 160);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 64);
const roots = process.argv.slice(2).map((p) => resolve(p));
if (roots.length === 0) roots.push(resolve(import.meta.dir, ".."));
const dir = mkdtempSync(join(tmpdir(), "xpay-hot-price-"));
const weeksAgo = () => Math.floor(Date.now() / 1000) - 40 * 86400;

/** HISTORY orders paid weeks ago at the shop's prices, spread over the accounts, in one statement. */
const HISTORY_SQL = `
  WITH RECURSIVE n(i) AS (SELECT CAST(0 AS BIGINT) UNION ALL SELECT i + 1 FROM n WHERE i + 1 < $count),
  a AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k, count(*) OVER () AS m FROM channel_accounts)
  INSERT INTO orders (trade_no, pid, out_trade_no, family, pay_type, name, amount, trade_amount, account_id, status, created_at, expire_time, paid_at, seq)
  SELECT 'H' || (100000000000000000 + i), $pid, 'history-' || i, 'native', 'alipay', 'VIP', 1000, 1000 + i % 5, a.id, 2,
         $t0 + i * 2592000 / $count, $t0 + i * 2592000 / $count + 300, $t0 + i * 2592000 / $count + 60, i + 1
  FROM n JOIN a ON a.k = i % a.m`;
const SETTLE_SQL =
  process.env.SETTLE === "0"
    ? "UPDATE orders SET status = status WHERE $t < 0" // nothing: the batch stays pending
    : "UPDATE orders SET status = 2, paid_at = $t, created_at = $t - 60, expire_time = $t + 240 WHERE status = 1";

/** Runs the history insert and the settle on SQLite (the log checkpointed after, not in the next batch) or PostgreSQL. */
function engine(db: string) {
  if (!db.startsWith("postgres")) {
    const d = new Database(db, { strict: true });
    d.exec("PRAGMA busy_timeout = 5000");
    const run = (text: string, bind: Record<string, number>) => {
      d.query(text).run(bind);
      d.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    };
    return { run, close: () => d.close() };
  }
  const sql = new SQL(db);
  const run = async (text: string, bind: Record<string, number>) => {
    const names: string[] = [];
    const pgText = text.replace(/\$(\w+)/g, (_, k: string) => `$${names.includes(k) ? names.indexOf(k) + 1 : names.push(k)}::bigint`);
    await sql.unsafe(pgText, names.map((k) => bind[k]));
  };
  return { run, close: () => sql.close() };
}

async function gateway(name: string, root: string, db: string) {
  const { buildApp } = await import(join(root, "src/server/app.ts"));
  const { openGateway } = await import(join(root, "src/server/bootstrap.ts"));
  const { seed, PID, SECRET } = await import(join(root, "bench/seed.ts"));
  const { md5Sign } = await import(join(root, "src/protocols/signing.ts"));
  await seed(db);
  const createBodies = (n: number, prefix: string, notifyUrl: string) => {
    const bodies: string[] = [];
    for (let i = 0; i < n; i++) {
      const p: Record<string, string> = { pid: String(PID), pay_type: "alipay", name: "VIP", money: "10.00", out_trade_no: `${prefix}${i}`, notify_url: notifyUrl };
      bodies.push(new URLSearchParams({ ...p, sign: md5Sign(p, SECRET, ["sign"]) }).toString());
    }
    return { bodies };
  };
  const m = createMeter<{ store: { close(): void } }>({ buildApp, openGateway, createBodies }, db, name, { creates: (ROUNDS + 1) * BATCH, batch: BATCH, concurrency: CONCURRENCY });
  const e = engine(db);
  if (HISTORY > 0) await e.run(HISTORY_SQL, { count: HISTORY, pid: PID, t0: weeksAgo() });
  // Orders paid weeks ago have long been vacuumed on a real server; without it every index entry
  // read would fetch its row to learn it is visible, and when autovacuum came in the run would decide.
  if (HISTORY > 0 && db.startsWith("postgres")) await e.run("VACUUM (ANALYZE) orders", {});
  return {
    meter: m,
    /** The batch's orders paid weeks ago: nothing pending when the next round starts. */
    settle: () => e.run(SETTLE_SQL, { t: weeksAgo() }),
    close: () => {
      e.close();
      m.gw.store.close();
    },
  };
}

const cluster = process.env.BENCH_PG === "1" ? await startCluster() : null;
try {
  const gws = [];
  for (const [i, root] of roots.entries()) {
    const db = cluster ? await cluster.createDatabase(`hot${i}`) : join(dir, `c${i}.db`);
    gws.push({ root, ...(await gateway(`c${i}`, root, db)), cpu: [] as number[], rate: [] as number[] });
  }
  for (const g of gws) {
    await g.meter.batch(); // warm-up
    await g.settle();
  }
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < gws.length; k++) {
      const g = gws[(r + k) % gws.length]!;
      const started = performance.now();
      g.cpu.push(await g.meter.batch());
      g.rate.push(BATCH / ((performance.now() - started) / 1000));
      await g.settle();
    }
  }
  const engineName = cluster ? "PostgreSQL" : "SQLite";
  console.log(`${engineName}: native creates at one price, ${HISTORY} orders paid weeks ago at its five amounts on ${process.env.BENCH_ACCOUNTS ?? 16} accounts; ${ROUNDS} rounds of ${BATCH} (${CONCURRENCY} in flight), checkouts alternated:`);
  const spread = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return `${s[Math.floor(s.length / 2)]!.toFixed(1)} (${s[0]!.toFixed(1)}-${s.at(-1)!.toFixed(1)})`;
  };
  for (const g of gws) console.log(`${g.root}: ${spread(g.cpu)} µs of this process's CPU per create, ${spread(g.rate)} creates/s (median, range)`);
  for (const g of gws) g.close();
} finally {
  cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
}

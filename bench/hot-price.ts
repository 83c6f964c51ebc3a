// bun bench/hot-price.ts [CHECKOUT ...]: CPU per native create when a shop sells at one price and
// its amounts have gathered ended orders. Each checkout's gateway (its own module graph, its own
// seeded database, bench/seed.ts of that checkout) gets HISTORY orders paid weeks ago at 10.00-10.04
// yuan, spread over the accounts, as a shop with one plan has after a while; then rounds of BATCH
// creates at 10.00 (CONCURRENCY in flight, so the group commit batches them as under load) go
// through app.handle, the checkouts alternated. After each batch its orders are marked paid weeks
// ago too (not measured), so every round starts with no order pending, as in a shop whose orders
// get paid, and the history grows by BATCH a round. Prints the CPU time of this process per create:
// median and range over ROUNDS rounds per checkout. HISTORY=0 is the same shop on its first day.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Database } from "bun:sqlite";
import { createMeter } from "./create-cpu.ts";

const HISTORY = Number(process.env.HISTORY ?? 400_000);
const ROUNDS = Number(process.env.ROUNDS ?? 9);
const BATCH = Number(process.env.BATCH ?? 160);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 64);
const PRICES = [1000, 1001, 1002, 1003, 1004];
const roots = process.argv.slice(2).map((p) => resolve(p));
if (roots.length === 0) roots.push(resolve(import.meta.dir, ".."));
const dir = mkdtempSync(join(tmpdir(), "xpay-hot-price-"));
const weeksAgo = () => Math.floor(Date.now() / 1000) - 40 * 86400;

/** HISTORY orders paid weeks ago at the shop's prices, one transaction. */
function addHistory(db: Database, pid: number) {
  const accounts = (db.query("SELECT id FROM channel_accounts ORDER BY id").all() as { id: number }[]).map((r) => r.id);
  const t0 = weeksAgo();
  const insert = db.query(
    `INSERT INTO orders (trade_no, pid, out_trade_no, family, pay_type, name, amount, trade_amount, account_id, status, created_at, expire_time, paid_at, seq)
     VALUES ($t, $pid, $o, 'native', 'alipay', 'VIP', 1000, $ta, $a, 2, $c, $c + 300, $c + 60, (SELECT COALESCE(MAX(rowid), 0) + 1 FROM orders))`,
  );
  db.transaction(() => {
    for (let i = 0; i < HISTORY; i++) {
      const c = t0 + Math.floor((i * 30 * 86400) / Math.max(1, HISTORY));
      insert.run({ t: `H${String(i).padStart(19, "0")}`, pid, o: `history-${i}`, ta: PRICES[i % PRICES.length]!, a: accounts[i % accounts.length]!, c });
    }
  })();
}

async function gateway(name: string, root: string) {
  const { buildApp } = await import(join(root, "src/server/app.ts"));
  const { openGateway } = await import(join(root, "src/server/bootstrap.ts"));
  const { seed, PID, SECRET } = await import(join(root, "bench/seed.ts"));
  const { md5Sign } = await import(join(root, "src/protocols/signing.ts"));
  const path = join(dir, `${name}.db`);
  await seed(path);
  const createBodies = (n: number, prefix: string, notifyUrl: string) => {
    const bodies: string[] = [];
    for (let i = 0; i < n; i++) {
      const p: Record<string, string> = { pid: String(PID), pay_type: "alipay", name: "VIP", money: "10.00", out_trade_no: `${prefix}${i}`, notify_url: notifyUrl };
      bodies.push(new URLSearchParams({ ...p, sign: md5Sign(p, SECRET, ["sign"]) }).toString());
    }
    return { bodies };
  };
  const m = createMeter<{ store: { db: Database; close(): void } }>({ buildApp, openGateway, createBodies }, path, name, { creates: (ROUNDS + 1) * BATCH, batch: BATCH, concurrency: CONCURRENCY });
  addHistory(m.gw.store.db, PID);
  m.gw.store.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  return {
    meter: m,
    /** The batch's orders paid weeks ago: nothing pending when the next round starts; the log checkpointed. */
    settle: () => {
      const db = m.gw.store.db;
      db.query("UPDATE orders SET status = 2, paid_at = $t, created_at = $t - 60, expire_time = $t + 240 WHERE status = 1").run({ t: weeksAgo() });
      db.exec("PRAGMA wal_checkpoint(TRUNCATE)"); // not in the next batch's commits
    },
  };
}

try {
  const gws = [];
  for (const [i, root] of roots.entries()) gws.push({ root, ...(await gateway(`c${i}`, root)), cpu: [] as number[] });
  for (const g of gws) {
    await g.meter.batch(); // warm-up
    g.settle();
  }
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < gws.length; k++) {
      const g = gws[(r + k) % gws.length]!;
      g.cpu.push(await g.meter.batch());
      g.settle();
    }
  }
  console.log(`native creates at one price, ${HISTORY} orders paid weeks ago at its five amounts on ${process.env.BENCH_ACCOUNTS ?? 16} accounts; ${ROUNDS} rounds of ${BATCH} (${CONCURRENCY} in flight), checkouts alternated:`);
  for (const g of gws) {
    const s = [...g.cpu].sort((a, b) => a - b);
    console.log(`${g.root}: ${s[Math.floor(s.length / 2)]!.toFixed(1)} µs of CPU per create (median; ${s[0]!.toFixed(1)}-${s.at(-1)!.toFixed(1)})`);
  }
  for (const g of gws) g.meter.gw.store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

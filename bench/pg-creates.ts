// Creates per second through the PostgreSQL store alone (no HTTP), one or two store instances (two
// connection pools, as two xpay processes have) on one database, 16 accounts of one pay type, 32
// creates in flight: what the account locks of a create let through (src/store/postgres/README.md,
// "Known limits"). `bun bench/pg-creates.ts [seconds]`; XPAY_ROOT=/other/checkout compares another
// version of the store on the same cluster in the same run.
import { join } from "node:path";
import { startCluster } from "../test/pg/cluster.ts";

const root = process.env.XPAY_ROOT ?? join(import.meta.dir, "..");
const { PostgresStore } = await import(join(root, "src/store/postgres/index.ts"));
const h = await import(join(root, "test/store-contract/harness.ts"));
const seconds = Number(process.argv[2] ?? 5);
// PG_DURABLE=0: fsync off, to see the locks rather than the disk.
const cluster = await startCluster({ durable: process.env.PG_DURABLE !== "0" });
try {
  for (const instances of [1, 2]) {
    const url = await cluster.createDatabase(`creates${instances}`);
    const stores = Array.from({ length: instances }, () => PostgresStore.open(url, { max: 16 }));
    await h.merchant(stores[0]);
    for (let i = 0; i < 16; i++) await h.account(stores[0]);
    let made = 0;
    let failed = 0;
    const until = performance.now() + seconds * 1000;
    const worker = async (w: number) => {
      for (let i = 0; performance.now() < until; i++) {
        const r = await stores[w % instances].createOrder(h.createUnit(h.newOrder({ amount: 1000 + Math.floor(Math.random() * 9000) }), { policy: { maxOffset: 50 } }));
        if (r.kind === "created" && r.order.status === 1) made++;
        else failed++;
      }
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: 32 }, (_, w) => worker(w)));
    const rate = made / ((performance.now() - t0) / 1000);
    console.log(`${instances} instance(s): ${Math.round(rate)} creates/s (${made} made, ${failed} failed) [${root}]`);
    await Promise.all(stores.map((s: { end(): Promise<void> }) => s.end()));
  }
} finally {
  cluster.stop();
}

// bun bench/notify-pages.ts: which B-trees a report -> paid -> notification writes, in pages of the
// write-ahead log per notification (bench/wal-pages.ts does the same for the native create). A
// seeded database takes BEFORE creates, then COUNT orders to pay, through app.handle; the log is
// emptied and checkpoints stopped; the phones' amount reports (as bench/notify.ts sends them,
// CONCURRENCY in flight so the group commit batches them as under load) pay the COUNT orders; the
// log is attributed, emptied again, and the notifications are delivered (deliverDue, DELIVER_BATCH
// at a time) to a receiver in this process, and the log attributed once more.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "bun:sqlite";
import { deliverDue } from "../src/core/notify/deliver.ts";
import { buildApp } from "../src/server/app.ts";
import { openGateway } from "../src/server/bootstrap.ts";
import { walPagesByTree } from "./lib.ts";
import { createBodies, createOk } from "./native.ts";
import { inParallel, phoneReport } from "./notify.ts";
import { seed } from "./seed.ts";

const BEFORE = Number(process.env.BEFORE ?? 20_000);
const COUNT = Number(process.env.COUNT ?? 4_000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16);
const DELIVER_BATCH = Number(process.env.DELIVER_BATCH ?? 16);

const dir = mkdtempSync(join(tmpdir(), "xpay-notify-pages-"));
const receiver = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("success") });
try {
  const path = join(dir, "xpay.db");
  await seed(path);
  const gw = openGateway({ db: path });
  const app = buildApp(gw);
  const db = (gw.store as unknown as { db: Database }).db;
  const post = (path: string, type: string, body: string) => app.handle(new Request(`http://127.0.0.1${path}`, { method: "POST", headers: { "content-type": type }, body }));
  const create = async (body: string) => {
    const res = await post("/xpay/order/create", "application/x-www-form-urlencoded", body);
    const text = await res.text();
    if (!createOk(res.status, text)) throw new Error(`create failed: ${text.slice(0, 200)}`);
  };
  const url = `http://127.0.0.1:${receiver.port}/notify`;
  await inParallel(createBodies(BEFORE, `B${Date.now()}-`, url).bodies, 64, create);
  const prefix = `R${Date.now()}-`;
  await inParallel(createBodies(COUNT, prefix, url).bodies, 64, create);
  const pending = db
    .query("SELECT o.trade_amount, o.account_id, a.code FROM orders o JOIN channel_accounts a ON a.id = o.account_id WHERE o.out_trade_no LIKE $p")
    .all({ p: `${prefix}%` }) as { trade_amount: number; account_id: number; code: string }[];

  const table = (what: string, n: number) => {
    const counts = walPagesByTree(db, path);
    const frames = [...counts.values()].reduce((a, b) => a + b, 0);
    console.log(`\n${what}, ${n} notifications after ${BEFORE} creates: ${frames} log frames, ${(frames / n).toFixed(2)} pages per notification\n`);
    console.log("| table or index | pages per notification |\n|---|---:|");
    for (const [name, c] of counts) console.log(`| ${name} | ${(c / n).toFixed(3)} |`);
  };
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  db.exec("PRAGMA wal_autocheckpoint = 0");
  let matched = 0;
  await inParallel(pending, CONCURRENCY, async (o) => {
    const answer = (await (await post("/api/report/0/pc", "application/json", phoneReport(o))).json()) as { data?: { outcome?: string } };
    if (answer.data?.outcome === "matched") matched++;
  });
  if (matched !== pending.length) throw new Error(`${matched} of ${pending.length} reports matched`);
  table("report -> paid", matched);

  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  let delivered = 0;
  for (;;) {
    const r = await deliverDue(gw, { limit: DELIVER_BATCH });
    delivered += r.delivered;
    if (r.attempted === 0) break;
  }
  if (delivered !== matched) throw new Error(`${delivered} of ${matched} notifications delivered`);
  table("delivery", delivered);
  gw.store.close();
} finally {
  receiver.stop(true);
  rmSync(dir, { recursive: true, force: true });
}

// bun bench/report-cpu.ts OLD_CHECKOUT NEW_CHECKOUT: whether report -> paid -> notification of one
// checkout costs more CPU than another's, as bench/checkout-cpu.ts does for the create. Both
// checkouts' server code is loaded in this process, each gateway on its own seeded database with
// its own notification worker; a receiver in this process answers "success". A batch: BATCH pending
// orders are created (not measured), then their phone reports go through app.handle, CONCURRENCY in
// flight, and the batch ends when every notification has arrived. CPU time of this process per
// notification (user + system: the report, its settlement, the claim, the attempt, its record, and
// the receiver, which is the same for every arm), rotating four arms for ROUNDS rounds: each
// checkout on two databases of its own (the second its noise floor); a full collection before each
// measured batch, so no arm pays for the garbage of the one before it. No HTTP between client and
// server, so the noise of the loopback and of the other process is out; the notification itself
// still goes over loopback to the receiver. The checkouts need node_modules (a symlink will do).
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBodies, createOk } from "./native.ts";
import { inParallel, type PendingOrder, phoneReport } from "./notify.ts";
import { PID } from "./seed.ts";
import { fourArms, rotate, seededCheckout, twoCheckouts } from "./two-checkouts.ts";
import { PUBLIC_TRADE_NO_SQL } from "../src/store/trade-no.ts";

const { oldRoot, newRoot } = twoCheckouts("bun bench/report-cpu.ts OLD_CHECKOUT NEW_CHECKOUT");
const ROUNDS = Number(process.env.ROUNDS ?? 30);
const BATCH = Number(process.env.BATCH ?? 500);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16);
const dir = mkdtempSync(join(tmpdir(), "xpay-report-cpu-"));

// The receiver: each arrival counted once by trade_no; a batch waits for its own.
const arrived = new Set<string>();
let waiting: { left: Set<string>; done: () => void } | null = null;
const receiver = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(req) {
    const params = req.method === "POST" ? new URLSearchParams(await req.text()) : new URL(req.url).searchParams;
    const t = params.get("trade_no");
    if (t && !arrived.has(t)) {
      arrived.add(t);
      if (waiting?.left.delete(t) && waiting.left.size === 0) waiting.done();
    }
    return new Response("success");
  },
});
const notifyUrl = `http://127.0.0.1:${receiver.port}/notify`;

async function arm(name: string, root: string) {
  const db = join(dir, `${name}.db`);
  const { buildApp, openGateway, load } = await seededCheckout(root, db);
  const { startWorker } = await load("src/server/worker.ts");
  const gw = openGateway({ db });
  const app = buildApp(gw) as { handle(r: Request): Promise<Response> };
  const worker = startWorker(gw) as { stop(): Promise<void> };
  const reader = new Database(db, { readonly: true });
  const pendingOf = reader.query(
    `SELECT ${PUBLIC_TRADE_NO_SQL} AS trade_no, o.trade_amount, o.account_id, a.code FROM orders o JOIN channel_accounts a ON a.id = o.account_id WHERE o.pid = $pid AND o.out_trade_no LIKE $p`,
  );
  let batches = 0;
  const post = (path: string, type: string, body: string) => app.handle(new Request(`http://127.0.0.1${path}`, { method: "POST", headers: { "content-type": type }, body }));
  return {
    gw,
    /** µs of this process's CPU time per notification, over one batch. */
    async batch(): Promise<number> {
      const prefix = `${name}-${batches++}-`;
      await inParallel(createBodies(BATCH, prefix, notifyUrl).bodies, 32, async (body) => {
        const r = await post("/xpay/order/create", "application/x-www-form-urlencoded", body);
        if (!createOk(r.status, await r.text())) throw new Error(`${name}: a create failed`);
      });
      const pending = pendingOf.all({ pid: PID, p: `${prefix}%` }) as PendingOrder[];
      if (pending.length !== BATCH) throw new Error(`${name}: ${pending.length} of ${BATCH} orders pending`);
      const all = new Promise<void>((done) => (waiting = { left: new Set(pending.map((o) => o.trade_no)), done }));
      // The garbage of the batch before (another arm's) is collected now, not charged to this one.
      Bun.gc(true);
      const cpu = process.cpuUsage();
      await inParallel(pending, CONCURRENCY, async (o) => {
        const answer = (await (await post("/api/report/0/pc", "application/json", phoneReport(o))).json()) as { data?: { outcome?: string } };
        if (answer.data?.outcome !== "matched") throw new Error(`${name}: a report was not matched: ${JSON.stringify(answer)}`);
      });
      const late = setTimeout(() => waiting?.done(), 30_000);
      await all;
      clearTimeout(late);
      const d = process.cpuUsage(cpu);
      if (waiting!.left.size > 0) throw new Error(`${name}: ${waiting!.left.size} notifications did not arrive`);
      return (d.user + d.system) / BATCH;
    },
    async close() {
      await worker.stop();
      reader.close();
      (gw as { store: { close(): void } }).store.close();
    },
  };
}

try {
  const arms = await fourArms(oldRoot, newRoot, arm);
  const verbose = process.env.VERBOSE ? (r: number, last: Record<string, number>) => console.error(`round ${r}: ${Object.entries(last).map(([n, us]) => `${n} ${us.toFixed(0)}`).join(", ")} µs`) : undefined;
  const line = await rotate(arms, ROUNDS, verbose);
  console.log(`report -> paid -> notification through app.handle and the worker, ${ROUNDS} rounds of ${BATCH} per arm (${CONCURRENCY} reports in flight), CPU time per notification: ${line}`);
  for (const a of Object.values(arms)) await a.close();
} finally {
  receiver.stop(true);
  rmSync(dir, { recursive: true, force: true });
}

// bun bench/notify-backlog.ts [CHECKOUT ...]: report -> paid -> notification (bench/notify.ts) for
// merchant 1001 while merchant 1002 has BACKLOG notifications due (default 20 000) whose endpoint
// accepts the connection and never answers: 1002's share of the worker is held by attempts that
// wait, and every claim pass finds its backlog. Each checkout's own server (bench/rig.ts, its own
// migrations) on a fresh database, the checkouts alternated over BENCH_ROUNDS rounds (default 3).
// Prints notifications a second, p50/p99 and the server's CPU per notification of each.
import { Database } from "bun:sqlite";
import { createServer, type Socket } from "node:net";
import { resolve } from "node:path";
import { cpuMs, DURATION, percentile } from "./lib.ts";
import { notifyLoad, type NotifyResult, type PendingOrder } from "./notify.ts";
import { PENDING } from "./pg-arms.ts";
import { startRig } from "./rig.ts";
import { PID } from "./seed.ts";

const BACKLOG = Number(process.env.BACKLOG ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ORDERS = Number(process.env.BENCH_NOTIFY_ORDERS ?? DURATION * 1500);
const roots = process.argv.slice(2).map((p) => resolve(p));
if (roots.length === 0) roots.push(resolve(import.meta.dir, ".."));
const log = (...a: unknown[]) => console.error("[bench:notify-backlog]", ...a);

/** A merchant endpoint that takes the connection and never answers (until close()). */
function hangingEndpoint(): Promise<{ url: string; close(): void }> {
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on("error", () => {});
    s.on("close", () => sockets.delete(s));
  });
  return new Promise((ok) =>
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      ok({
        url: `http://127.0.0.1:${port}/notify`,
        close() {
          for (const s of sockets) s.destroy(); // the held attempts fail now, so the server stops at once
          server.close();
        },
      });
    }),
  );
}

/** Merchant 1002, BACKLOG paid orders of it and their notifications, all due, written straight into the tables. */
function writeBacklog(path: string, url: string): void {
  const db = new Database(path);
  const nowMs = Date.now();
  db.transaction(() => {
    db.query("INSERT INTO merchants (pid, name, secret, created_at) VALUES (1002, 'Other shop', 'secret-of-the-other-shop-01', 1)").run();
    db.query(`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < $count)
      INSERT INTO orders (trade_no, pid, out_trade_no, family, name, amount, status, created_at, expire_time)
      SELECT 'BACKLOG' || i, 1002, 'backlog-' || i, 'native', 'x', 100, 2, 1, 2 FROM n`).run({ $count: BACKLOG });
    db.query(`INSERT INTO notifications (trade_no, family, url, method, params, next_attempt_at, created_at)
      SELECT trade_no, 'native', $url, 'POST', '{}', $now - 60000, 1 FROM orders WHERE pid = 1002`).run({ $url: url, $now: nowMs });
  })();
  db.close();
}

const runs: { c: number; r: NotifyResult; cpu: number }[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  const order = roots.map((_, i) => i);
  for (const c of round % 2 ? order : order.reverse()) {
    const rig = await startRig("xpay-notify-backlog-", roots[c]);
    const hang = await hangingEndpoint();
    try {
      writeBacklog(rig.dbPath, hang.url);
      await Bun.sleep(1500); // the worker's poll finds the backlog and fills 1002's share with attempts that wait
      const db = new Database(rig.dbPath, { readonly: true });
      const pending = async (prefix: string) => db.query(`${PENDING}?`).all(`${prefix}%`) as PendingOrder[];
      let before = 0;
      const r = await notifyLoad({ gateways: [rig.gateway], pending }, rig.receiver, { orders: ORDERS, concurrency: 16, seconds: DURATION, beforeReports: async () => void (before = cpuMs([rig.server.pid])) });
      const cpu = (cpuMs([rig.server.pid]) - before) / Math.max(1, r.delivered);
      db.close();
      runs.push({ c, r, cpu });
      log(`round ${round} ${String.fromCharCode(65 + c)}: ${Math.round(r.perSecond)}/s, p50 ${r.p50.toFixed(1)} p99 ${r.p99.toFixed(1)} ms, ${r.delivered}/${r.matched} delivered, stolen ${r.steal.toFixed(1)}%, server CPU ${cpu.toFixed(3)} ms per notification`);
    } finally {
      hang.close();
      await rig.stop();
    }
  }
}
const med = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);
console.log(`report -> notification for merchant ${PID} while merchant 1002 has ${BACKLOG} due to an endpoint that never answers; ${ROUNDS} rounds alternated, ${DURATION} s of reports from 16 senders\n`);
console.log("| checkout | notifications/s by round | median | p50 ms (median) | p99 ms by round | server CPU ms a notification (median) | stolen |");
console.log("|---|---|---:|---:|---|---:|---|");
roots.forEach((root, c) => {
  const mine = runs.filter((x) => x.c === c);
  console.log(`| ${String.fromCharCode(65 + c)} ${root} | ${mine.map((x) => Math.round(x.r.perSecond)).join(" / ")} | ${Math.round(med(mine.map((x) => x.r.perSecond)))} | ${med(mine.map((x) => x.r.p50)).toFixed(1)} | ${mine.map((x) => x.r.p99.toFixed(1)).join(" / ")} | ${med(mine.map((x) => x.cpu)).toFixed(3)} | ${mine.map((x) => x.r.steal.toFixed(1)).join(" / ")} % |`);
});

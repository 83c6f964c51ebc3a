// bun bench/console-orders.ts [DB]: the console's orders and reports pages, whole requests through
// the app (guard, session, query, render), on a large order history (bench/seed-orders.ts: ORDERS
// orders, default 1 000 000, over the last 60 days, 5 merchants, 16 accounts). Each page is asked
// RUNS times (default 7) on a warm page cache; the median and the slowest are printed. An existing
// DB is measured as it is (give a copy: an operator and a session are added to it).
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SESSION_COOKIE } from "../src/admin/guard.ts";
import { CLI_ACTOR } from "../src/core/admin/audit.ts";
import { addOperator } from "../src/core/admin/operators.ts";
import { startSession } from "../src/core/admin/sessions.ts";
import { buildApp } from "../src/server/app.ts";
import { openGateway } from "../src/server/bootstrap.ts";
import { seedOrders } from "./seed-orders.ts";

const RUNS = Number(process.env.RUNS ?? 7);
const ORDERS = Number(process.env.ORDERS ?? 1_000_000);
const given = process.argv[2];
const dir = given ? null : mkdtempSync(join(tmpdir(), "xpay-console-orders-"));
const path = given ?? join(dir!, "xpay.db");
const now = Math.floor(Date.now() / 1000);

try {
  if (!existsSync(path) || !given) {
    const t = performance.now();
    await seedOrders(path, { orders: ORDERS, days: 60, merchants: 5, accounts: 16, now });
    console.error(`[console-orders] seeded ${ORDERS} orders in ${Math.round(performance.now() - t)} ms`);
  }
  const gw = openGateway({ db: path });
  const app = buildApp(gw);
  const name = `bench${Date.now() % 100000}`;
  const op = await addOperator(gw, CLI_ACTOR, name, "a long bench password 42");
  if (op.kind !== "added") throw new Error(`operator: ${op.kind}`);
  const { token } = await startSession(gw, op.operator, { ip: "", userAgent: "bench" });
  const get = (p: string) => app.handle(new Request(`http://localhost${p}`, { headers: { cookie: `${SESSION_COOKIE}=${token}` } }));

  // Real positions and numbers from the data: the next page deep in the list, an existing order.
  const newest = (await gw.store.browse.searchOrders({ limit: 1, now }))[0]!;
  const deep = (await gw.store.browse.searchOrders({ limit: 1, now, to: now - 45 * 86400 }))[0]!;
  const report = (await gw.store.browse.searchReports({ limit: 1 }))[0];
  const day = (s: number) => new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Shanghai" }).format(new Date(s * 1000));
  const cases: [string, string][] = [
    ["orders, no filter", "/admin/orders"],
    ["orders, page after 45 days", `/admin/orders?after=${deep.createdAt}.${deep.tradeNo}`],
    ["orders, paid", "/admin/orders?status=paid"],
    ["orders, timed out", "/admin/orders?status=expired"],
    ["orders, failed (rare)", "/admin/orders?status=failed"],
    ["orders, one merchant, paid", "/admin/orders?pid=1003&status=paid"],
    ["orders, pay type qqpay", "/admin/orders?pay_type=qqpay"],
    ["orders, one account", "/admin/orders?account=5"],
    ["orders, one day 20 days ago", `/admin/orders?from=${day(now - 20 * 86400)}&to=${day(now - 20 * 86400)}`],
    ["orders, merchant + day + paid", `/admin/orders?pid=1002&status=paid&from=${day(now - 20 * 86400)}&to=${day(now - 20 * 86400)}`],
    ["orders, search trade_no", `/admin/orders?q=${newest.tradeNo}`],
    ["orders, search amount 123.45", "/admin/orders?q=123.45"],
    ["orders, search out_trade_no", `/admin/orders?q=${encodeURIComponent(newest.outTradeNo)}`],
    ["order page", `/admin/orders/${newest.tradeNo}`],
    ["reports, no filter", "/admin/reports"],
    ["reports, unmatched", "/admin/reports?outcome=unmatched"],
    ...(report ? [["report page", `/admin/reports/${report.id}`] as [string, string]] : []),
  ];
  console.log(`${ORDERS === 1_000_000 && given ? "given database" : `${ORDERS} orders`}; ${RUNS} runs each; milliseconds per whole request`);
  console.log(`${"page".padEnd(34)} ${"median".padStart(8)} ${"max".padStart(8)}  rows`);
  for (const [label, url] of cases) {
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      const res = await get(url);
      const html = await res.text();
      times.push(performance.now() - t);
      if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
      rows = (html.match(/<tr data-(trade-no|report)=/g) ?? []).length;
    }
    times.sort((a, b) => a - b);
    console.log(`${label.padEnd(34)} ${times[Math.floor(times.length / 2)]!.toFixed(1).padStart(8)} ${times.at(-1)!.toFixed(1).padStart(8)}  ${rows}`);
  }
  gw.store.close();
} finally {
  if (dir) rmSync(dir, { recursive: true, force: true });
}

// bun bench/console.ts [DB] (npm run bench:console): the operator console on a large order
// history. Seeds ORDERS orders (default 1 000 000) over the last 60 days (bench/seed-orders.ts: 5
// merchants, 16 accounts, 45 % paid, reports and notifications beside them), then times whole
// requests through the real app (`app.handle` with a logged-in operator's session cookie: guard,
// session lookup, queries, rendering) and, beside them, the store calls each page makes.
// RUNS requests per case (default 21) after one warm-up, one at a time; median and p95 printed.
// An existing DB given as the argument is measured as it is (seed once, measure often).
// The orders list is another page's work: if /admin/orders answers 404, its HTTP cases are
// skipped with a message and only its store call is timed.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SESSION_COOKIE } from "../src/admin/guard.ts";
import { CLI_ACTOR } from "../src/core/admin/audit.ts";
import { addOperator } from "../src/core/admin/operators.ts";
import { startSession } from "../src/core/admin/sessions.ts";
import { attentionList } from "../src/core/browse/attention.ts";
import { clientStates } from "../src/core/monitor-clients.ts";
import { dashboardStats } from "../src/core/stats/dashboard.ts";
import { merchantIncome } from "../src/core/stats/merchant-income.ts";
import { accountsNearDayLimit } from "../src/core/stats/day-limits.ts";
import { buildApp } from "../src/server/app.ts";
import { openGateway } from "../src/server/bootstrap.ts";
import { cpuTimes, stealPct } from "./lib.ts";
import { seedOrders } from "./seed-orders.ts";

const RUNS = Number(process.env.RUNS ?? 21);
const ORDERS = Number(process.env.ORDERS ?? 1_000_000);
const TARGET_MS = 200;
const given = process.argv[2];
const dir = given ? null : mkdtempSync(join(tmpdir(), "xpay-console-bench-"));
const path = given ?? join(dir!, "xpay.db");
const log = (...a: unknown[]) => console.error("[console]", ...a);

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

interface Timing {
  median: number;
  p95: number;
  max: number;
  /** This process's CPU time per run (user + system), median: what other load on the machine disturbs least. */
  cpu: number;
  /** Share of the machine's CPU time the hypervisor took meanwhile. */
  steal: number;
}

async function time(run: () => Promise<unknown>): Promise<Timing> {
  await run(); // warm: page cache, statement cache
  const ms: number[] = [];
  const cpu: number[] = [];
  const before = cpuTimes();
  for (let i = 0; i < RUNS; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    await run();
    ms.push(performance.now() - t);
    const d = process.cpuUsage(c);
    cpu.push((d.user + d.system) / 1000);
  }
  ms.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return { median: pct(ms, 50), p95: pct(ms, 95), max: ms.at(-1)!, cpu: pct(cpu, 50), steal: stealPct(before, cpuTimes()) || 0 };
}

try {
  if (!existsSync(path) || !given) {
    const t = performance.now();
    await seedOrders(path, { orders: ORDERS, days: 60, merchants: 5, accounts: 16, now: Math.floor(Date.now() / 1000) });
    log(`seeded ${ORDERS} orders in ${Math.round(performance.now() - t)} ms`);
  }
  const gw = openGateway({ db: path });
  const app = buildApp(gw);
  const name = "bench";
  const added = await addOperator(gw, CLI_ACTOR, name, "bench console password 1");
  if (added.kind !== "added" && added.kind !== "exists") throw new Error(`operator: ${added.kind}`);
  const operator = (await gw.store.admin.findOperator(name))!;
  const { token } = await startSession(gw, operator, { ip: "127.0.0.1", userAgent: "bench/console.ts" });
  const cookie = `${SESSION_COOKIE}=${token}`;
  const get = async (p: string) => {
    const res = await app.handle(new Request(`http://localhost${p}`, { headers: { cookie } }));
    const body = await res.text();
    if (res.status !== 200) throw Object.assign(new Error(`GET ${p}: ${res.status}`), { status: res.status });
    return body.length;
  };

  // A merchant number and an amount that exist: the searches find something.
  const sample = (await gw.store.browse.searchOrders({ pid: 1003, status: 2, limit: 1, now: gw.clock.now() }))[0]!;
  const now = () => gw.clock.now();
  const rows: string[] = [];
  const row = (what: string, r: Timing) => {
    rows.push(`| ${what} | ${r.median.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.max.toFixed(1)} | ${r.cpu.toFixed(1)} | ${r.steal.toFixed(0)} | ${r.p95 < TARGET_MS ? "yes" : "**no**"} |`);
    log(`${what}: median ${r.median.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, cpu ${r.cpu.toFixed(1)} ms, stolen ${r.steal.toFixed(0)} %`);
  };

  log(`GET /admin: ${await get("/admin")} bytes`);
  row("GET /admin (dashboard, whole request)", await time(() => get("/admin")));
  row("  dashboardStats (income, charts, breakdowns)", await time(() => dashboardStats(gw)));
  row("  attentionList", await time(() => attentionList(gw)));
  row("  clientStates + accountsNearDayLimit", await time(async () => (await clientStates(gw), await accountsNearDayLimit(gw))));

  const lists: [string, string, Parameters<typeof gw.store.browse.searchOrders>[0] | (() => Parameters<typeof gw.store.browse.searchOrders>[0])][] = [
    ["status paid + merchant 1003", "/admin/orders?status=paid&pid=1003", () => ({ status: 2, pid: 1003, limit: 51, now: now() })],
    ["status expired + merchant 1003, a page 200 pages deep", "", () => ({ status: 4, pid: 1003, limit: 51, now: now() })],
    [`search by merchant number (${sample.outTradeNo})`, `/admin/orders?q=${encodeURIComponent(sample.outTradeNo)}`, () => ({ search: { outTradeNo: sample.outTradeNo }, limit: 51, now: now() })],
    [`search by amount (${(sample.tradeAmount! / 100).toFixed(2)})`, `/admin/orders?q=${(sample.tradeAmount! / 100).toFixed(2)}`, () => ({ search: { tradeAmount: sample.tradeAmount!, outTradeNo: (sample.tradeAmount! / 100).toFixed(2) }, limit: 51, now: now() })],
    ["status paid + merchant 1003 + search by amount", `/admin/orders?status=paid&pid=1003&q=${(sample.tradeAmount! / 100).toFixed(2)}`, () => ({ status: 2, pid: 1003, search: { tradeAmount: sample.tradeAmount!, outTradeNo: (sample.tradeAmount! / 100).toFixed(2) }, limit: 51, now: now() })],
  ];
  // The deep page: the cursor of the 200th page of that filter, found by walking it once.
  let deep: { createdAt: number; tradeNo: string } | undefined;
  for (let i = 0; i < 200; i++) {
    const page = await gw.store.browse.searchOrders({ status: 4, pid: 1003, after: deep, limit: 50, now: now() });
    if (page.length === 0) break;
    deep = { createdAt: page.at(-1)!.createdAt, tradeNo: page.at(-1)!.tradeNo };
  }
  lists[1]![1] = deep ? `/admin/orders?status=expired&pid=1003&after=${deep.createdAt}.${deep.tradeNo}` : "";
  lists[1]![2] = () => ({ status: 4, pid: 1003, after: deep, limit: 51, now: now() });

  let orderPage = true;
  try {
    await get("/admin/orders?status=paid&pid=1003");
  } catch (e) {
    if ((e as { status?: number }).status !== 404) throw e;
    orderPage = false;
    log("GET /admin/orders answers 404 (the orders page is not there yet): its HTTP cases are skipped, its store call is timed");
  }
  for (const [what, url, q] of lists) {
    if (orderPage && url) row(`GET /admin/orders, ${what}`, await time(() => get(url)));
    row(`  store.browse.searchOrders, ${what}`, await time(() => gw.store.browse.searchOrders(typeof q === "function" ? q() : q)));
  }
  // Issue 28: merchants with income and delivery health, the orders list's totals, newer filters and CSV.
  row("GET /admin/merchants (income 1/7/30 d, delivery health)", await time(() => get("/admin/merchants")));
  row("  merchantIncome (every merchant, 3 ranges)", await time(() => merchantIncome(gw)));
  row("  store.deliveryHealth (every merchant)", await time(() => gw.store.deliveryHealth()));
  row("GET /admin/merchants/1003 (API, income, delivery)", await time(() => get("/admin/merchants/1003")));
  if (orderPage) {
    const today = new Date((now() + 8 * 3600) * 1000).toISOString().slice(0, 10);
    for (const [what, qs] of [
      ["no filter", ""], ["merchant 1003", "pid=1003"], ["status paid", "status=paid"], ["paid today", `paid_from=${today}`],
      ["amount 100-200 yuan", "amount_min=100&amount_max=200"], ["payer IP", "ip=203.0.113.7"],
    ] as const) {
      row(`GET /admin/orders, ${what}`, await time(() => get(`/admin/orders${qs ? `?${qs}` : ""}`)));
      row(`GET /admin/orders/totals, ${what}`, await time(() => get(`/admin/orders/totals${qs ? `?${qs}` : ""}`)));
    }
    // The export's first byte: the answer's headers and the first chunk (the CSV header line).
    const firstByte = async (qs: string) => {
      const res = await app.handle(new Request(`http://localhost/admin/orders/export.csv${qs}`, { headers: { cookie } }));
      const reader = res.body!.getReader();
      await reader.read();
      await reader.cancel();
    };
    row("GET /admin/orders/export.csv, first byte (no filter)", await time(() => firstByte("")));
    row("GET /admin/orders/export.csv, first byte (status paid, merchant 1003)", await time(() => firstByte("?status=paid&pid=1003")));
  }
  // Every other list page on the same history: what an operator opens in a day.
  const order = sample.tradeNo;
  const account = sample.accountId ?? 1;
  for (const url of [
    "/admin/reports", "/admin/reports?outcome=unmatched&money=yes", "/admin/reports?outcome=unmatched&money=no", `/admin/orders/${order}`,
    "/admin/accounts", `/admin/accounts/${account}`, `/admin/accounts/${account}/slots`, "/admin/clients",
    "/admin/merchants/1003/delivery", "/admin/notifications", "/admin/notifications?pid=1003",
    "/admin/alerts", "/admin/rules", "/admin/operators", "/admin/backups", "/admin/audit", "/admin/sessions", "/admin/settings",
  ]) {
    try {
      row(`GET ${url}`, await time(() => get(url)));
    } catch (e) {
      // A page that does not take this query (or is not there) is named, not silently left out.
      rows.push(`| GET ${url} | answered ${(e as { status?: number }).status ?? (e as Error).message} | | | | | |`);
    }
  }
  // The date filters (issue 28 item 10) and the outbox's merchant filter: the outbox, reports and
  // audit walk their ids newest first; a day a month ago and a merchant with no failed notification
  // (every row looked at) are the slow ends.
  const day = (ago: number) => new Date((now() - ago * 86400 + 8 * 3600) * 1000).toISOString().slice(0, 10);
  const old = `from=${day(30)}&to=${day(30)}`;
  for (const qs of ["status=failed&pid=1003", "range=7d", old, `pid=1003&${old}`]) {
    row(`GET /admin/notifications${qs ? `?${qs}` : ""}`, await time(() => get(`/admin/notifications${qs ? `?${qs}` : ""}`)));
  }
  for (const qs of ["range=today", "range=7d&outcome=unmatched", old]) row(`GET /admin/reports?${qs}`, await time(() => get(`/admin/reports?${qs}`)));
  row("GET /admin/audit?range=7d", await time(() => get("/admin/audit?range=7d")));
  gw.store.close();
  const load = (await Bun.file("/proc/loadavg").text().catch(() => "?")).split(" ").slice(0, 3).join(" ");
  console.log(`| ${ORDERS.toLocaleString("en")} orders over 60 days, ${RUNS} runs each | median ms | p95 ms | slowest ms | CPU ms | stolen % | p95 < ${TARGET_MS} ms |\n|---|---:|---:|---:|---:|---:|---|\n${rows.join("\n")}\n\nload average at the end: ${load}`);
} finally {
  if (dir) rmSync(dir, { recursive: true, force: true });
}

// bun bench/stats.ts [DB]: the income queries of `xpay stats` and the console dashboard on a large
// order history (bench/seed-orders.ts: ORDERS orders, default 1 000 000, over the last 60 days,
// 5 merchants, 16 accounts, 45 % paid). Each query runs RUNS times (default 7) on a warm page
// cache; the median and the slowest are printed. An existing DB is measured as it is.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lastDays } from "../src/core/stats/calendar.ts";
import { dashboardStats } from "../src/core/stats/dashboard.ts";
import { incomeStats, type StatsBy } from "../src/core/stats/income.ts";
import { openGateway } from "../src/server/bootstrap.ts";
import { seedOrders } from "./seed-orders.ts";

const RUNS = Number(process.env.RUNS ?? 7);
const ORDERS = Number(process.env.ORDERS ?? 1_000_000);
const given = process.argv[2];
const dir = given ? null : mkdtempSync(join(tmpdir(), "xpay-stats-"));
const path = given ?? join(dir!, "xpay.db");
const now = Math.floor(Date.now() / 1000);

try {
  if (!existsSync(path) || !given) {
    const t = performance.now();
    await seedOrders(path, { orders: ORDERS, days: 60, merchants: 5, accounts: 16, now });
    console.error(`[stats] seeded ${ORDERS} orders in ${Math.round(performance.now() - t)} ms`);
  }
  const gw = openGateway({ db: path });
  const zone = "Asia/Shanghai";
  const days = lastDays(now, 30, zone);
  const today = days[29]!;
  const cases: [string, () => Promise<unknown>][] = [];
  const q = (name: string, from: number, by: StatsBy, to = now + 1, pid?: number) =>
    cases.push([name, () => incomeStats(gw, { from, to, by, pid, zone })]);
  q("today (per hour)", today, "hour");
  q("yesterday", days[28]!, "day", today);
  q("last 7 days (per day)", days[23]!, "day");
  q("last 30 days (per day)", days[0]!, "day");
  q("last 30 days, one merchant", days[0]!, "day", now + 1, 1001);
  q("today by pay type", today, "pay-type");
  q("last 30 days by pay type", days[0]!, "pay-type");
  q("last 30 days by account", days[0]!, "account");
  q("last 30 days by merchant", days[0]!, "merchant");
  q("last 60 days (per day)", lastDays(now, 60, zone)[0]!, "day");
  cases.push(["dashboardStats (everything above for 30 days, one call)", () => dashboardStats(gw, { now })]);

  const rows: string[] = [];
  for (const [name, run] of cases) {
    await run(); // warm
    const ms: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      await run();
      ms.push(performance.now() - t);
    }
    ms.sort((a, b) => a - b);
    rows.push(`| ${name} | ${ms[Math.floor(ms.length / 2)]!.toFixed(1)} | ${ms.at(-1)!.toFixed(1)} |`);
    console.error(`[stats] ${name}: median ${ms[Math.floor(ms.length / 2)]!.toFixed(1)} ms`);
  }
  gw.store.close();
  console.log(`| query (${ORDERS.toLocaleString("en")} orders over 60 days) | median ms | slowest ms |\n|---|---:|---:|\n${rows.join("\n")}`);
} finally {
  if (dir) rmSync(dir, { recursive: true, force: true });
}

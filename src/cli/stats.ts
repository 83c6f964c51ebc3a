// `xpay stats`: income in the terminal, the same figures as the console dashboard (one core
// function, core/stats/income.ts). A reader: it works on a read-only copy of the database too.
import type { Command } from "commander";
import pc from "picocolors";
import { formatYuan, showYuan } from "../core/money.ts";
import { lastDays } from "../core/stats/calendar.ts";
import { type IncomeFigures, type IncomeReport, incomeStats, STATS_BY, type StatsBy, statsZone } from "../core/stats/income.ts";
import { formatLocal } from "../core/time.ts";
import { type Cli, CliError, intArg, printJson } from "./context.ts";
import { examples } from "./help.ts";

const percent = (ratio: number | null) => (ratio === null ? "-" : `${(ratio * 100).toFixed(1)}%`);

/** Cents and yuan both: scripts sum the integers, people read the yuan. */
function figuresJson(f: IncomeFigures) {
  return { paid_count: f.paidCount, paid_cents: f.paidAmount, paid_yuan: formatYuan(f.paidAmount), created: f.created, paid_ratio: f.ratio };
}

export function statsJson(r: IncomeReport) {
  return {
    from: r.from, to: r.to, from_local: formatLocal(r.from * 1000, r.zone), to_local: formatLocal(r.to * 1000, r.zone),
    timezone: r.zone, by: r.by, pid: r.pid ?? null,
    rows: r.rows.map((g) => ({ key: g.key, label: g.label, ...figuresJson(g) })),
    total: figuresJson(r.total),
  };
}

/** An aligned table: the group column left, the figures right, a totals row under a rule. */
export function statsTable(r: IncomeReport): string[] {
  const head = [r.by === "pay-type" ? "pay type" : r.by, "paid", "amount", "created", "paid/created"];
  const cells = (label: string, f: IncomeFigures) => [label, String(f.paidCount), showYuan(f.paidAmount), String(f.created), percent(f.ratio)];
  const rows = r.rows.map((g) => cells(g.label, g));
  const total = cells("total", r.total);
  const widths = head.map((h, i) => Math.max(h.length, total[i]!.length, ...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) => row.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join("  ");
  const quiet = (row: string[], f: IncomeFigures) => (f.created === 0 && f.paidCount === 0 ? pc.dim(line(row)) : line(row));
  return [
    pc.dim(line(head)),
    ...rows.map((row, i) => quiet(row, r.rows[i]!)),
    pc.dim(widths.map((w) => "-".repeat(w)).join("  ")),
    pc.bold(line(total)),
  ];
}

export function register(program: Command, cli: Cli): void {
  program
    .command("stats")
    .description("income: paid orders and amounts, created orders and the paid share, per day, hour, pay type, account or merchant")
    .addHelpText(
      "after",
      "\nA paid order counts on the day it was paid, a created one on the day it was created; days are\n" +
        "local days of the `timezone` setting, today included up to now.\n" +
        examples("xpay stats", "xpay stats --days 30 --by pay-type", "xpay stats --days 1 --by hour --pid 1001", "xpay stats --days 7 --json"),
    )
    .option("--days <n>", "the last n days, today included", "7")
    .option("--pid <pid>", "only this merchant")
    .option("--by <group>", STATS_BY.join(" / "), "day")
    .option("--json", "print JSON (amounts in cents and as yuan text)")
    .action(async (o: { days: string; pid?: string; by: string; json?: boolean }) => {
      if (!STATS_BY.includes(o.by as StatsBy)) throw new CliError(`--by must be one of: ${STATS_BY.join(", ")}`);
      const days = intArg("--days", o.days, { min: 1 })!;
      if (days > 3660) throw new CliError("--days must be at most 3660");
      const gw = cli.open();
      const pid = intArg("--pid", o.pid);
      if (pid !== undefined && !(await gw.store.getMerchant(pid))) throw new CliError(`no merchant ${pid}; see xpay merchant list`);
      const now = gw.clock.now();
      const zone = await statsZone(gw);
      const report = await incomeStats(gw, { from: lastDays(now, days, zone)[0]!, to: now + 1, by: o.by as StatsBy, pid, zone });
      if (o.json) return printJson(statsJson(report));
      const who = pid === undefined ? "all merchants" : `merchant ${pid}`;
      console.log(`${pc.bold("income")} ${formatLocal(report.from * 1000, report.zone)} .. now, ${who}`);
      for (const l of statsTable(report)) console.log(l);
    });
}

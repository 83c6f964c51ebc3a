// `xpay report list`: every report the report API (and simulate-pay) received, with its outcome,
// so an operator can see why a phone's payment did or did not pay an order.
import type { Command } from "commander";
import pc from "picocolors";
import type { StoredReport } from "../core/store.ts";
import { type Cli, CliError, intArg, printJson, printTable } from "./context.ts";
import { examples } from "./help.ts";
import { showTime } from "./time.ts";

const OUTCOMES = ["matched", "unmatched", "duplicate", "rejected", "accepted"];

export function reportView(r: StoredReport) {
  return {
    id: r.id, kind: r.kind, pid: r.pid ?? "", client: r.client, amount: r.amount ?? "", pay_type: r.payType, channel_code: r.channelCode,
    outcome: r.outcome, trade_no: r.tradeNo ?? "", reason: r.reason, created_at: showTime(r.createdAt), raw: r.raw, source: r.source ?? "",
  };
}

export function register(program: Command, cli: Cli): void {
  const report = program
    .command("report")
    .description("reports received from monitoring clients (report API) and simulate-pay")
    .addHelpText("after", examples("xpay report list", "xpay report list --outcome rejected"));
  report
    .command("list")
    .description("list reports, newest first")
    .addHelpText("after", examples("xpay report list --outcome rejected   # refused reports and the refusal counters", "xpay report list --pid 1001 --limit 10 --json"))
    .option("--pid <pid>", "only this merchant")
    .option("--outcome <outcome>", OUTCOMES.join(" / "))
    .option("--limit <n>", "at most n reports", "50")
    .option("--json", "print JSON (with the raw report)")
    .action(async (o: { pid?: string; outcome?: string; limit: string; json?: boolean }) => {
      if (o.outcome !== undefined && !OUTCOMES.includes(o.outcome)) throw new CliError(`--outcome must be one of: ${OUTCOMES.join(", ")}`);
      const store = cli.open().store;
      const rows = (await store.listReports({ pid: intArg("--pid", o.pid), outcome: o.outcome, limit: intArg("--limit", o.limit, { min: 1 }) })).map(reportView);
      if (o.json) return printJson(rows);
      const rejected = o.outcome === "rejected";
      printTable(
        rows.map((r) => ({ ...r, reason: r.reason.length > 60 ? `${r.reason.slice(0, 57)}...` : r.reason })),
        ["id", "created_at", "kind", "pid", ...(rejected ? ["source"] : []), "client", "amount", "pay_type", "outcome", "trade_no", "reason"],
      );
      // Only the last few refusals per source are kept as rows; the counters hold all of them.
      if (rejected) {
        const counts = await store.listRefusalCounts({ limit: 20 });
        console.log(`\n${pc.bold("refusals counted")} ${pc.dim("(every refused report, including those no longer kept above)")}`);
        printTable(
          counts.map((c) => ({ source: c.source, reason: c.reason, count: c.count, first_seen: showTime(c.firstSeen), last_seen: showTime(c.lastSeen) })),
          ["source", "reason", "count", "first_seen", "last_seen"],
        );
      }
    });
}

// `xpay report list`: every report the report API (and simulate-pay) received, with its outcome,
// so an operator can see why a phone's payment did or did not pay an order; `report assign` pays
// an order with money that matched none (the console's assign form, the same audited core call).
import type { Command } from "commander";
import pc from "picocolors";
import { CLI_ACTOR } from "../core/admin/audit.ts";
import { parseReportFilter, REPORT_KINDS, REPORT_OUTCOMES } from "../core/browse/report-query.ts";
import { startOfDay } from "../core/ids.ts";
import { showYuan } from "../core/money.ts";
import { assignReportAs } from "../core/order-actions.ts";
import type { StoredReport } from "../core/store.ts";
import { type Cli, CliError, intArg, printJson, printTable, requireInt } from "./context.ts";
import { examples } from "./help.ts";
import { commandZone, showTime } from "./time.ts";

/** --json: the amount in integer cents (null when the report named none), named so. */
export function reportView(r: StoredReport) {
  return {
    id: r.id, kind: r.kind, pid: r.pid ?? "", client: r.client, amount_cents: r.amount ?? null, pay_type: r.payType, channel_code: r.channelCode,
    outcome: r.outcome, trade_no: r.tradeNo ?? "", reason: r.reason, created_at: showTime(r.createdAt), raw: r.raw, source: r.source ?? "",
  };
}

export function register(program: Command, cli: Cli): void {
  const report = program
    .command("report")
    .description("reports received from monitoring clients (report API) and simulate-pay")
    .addHelpText("after", examples("xpay report list", "xpay report list --outcome rejected", 'xpay report assign 42 20261123203000123456 --reason "payer paid 9.99 instead of 10.00"'));
  report
    .command("list")
    .description("list reports, newest first")
    .addHelpText("after", examples("xpay report list --outcome rejected   # refused reports and the refusal counters", "xpay report list --outcome unmatched --money yes   # money that paid no order", "xpay report list --pid 1001 --limit 10 --json"))
    .option("--pid <pid>", "only this merchant")
    .option("--outcome <outcome>", REPORT_OUTCOMES.join(" / "))
    .option("--kind <kind>", REPORT_KINDS.join(" / "))
    .option("--money <yes|no>", "yes: only reports with an amount (money); no: only messages that were no payment")
    .option("--from <date>", "received on or after: 2026-11-23 or \"2026-11-23 14:30\" (in the timezone setting)")
    .option("--to <date>", "received up to the end of this day (or before this time)")
    .option("--limit <n>", "at most n reports", "50")
    .option("--json", "print JSON (with the raw report)")
    .action(async (o: { pid?: string; outcome?: string; kind?: string; money?: string; from?: string; to?: string; limit: string; json?: boolean }) => {
      // The console's filter (core/browse/report-query.ts); an option typed empty is a mistake, not "any".
      const store = cli.open().store; // first: the dates are in its timezone setting
      const typed = { outcome: o.outcome, kind: o.kind, pid: o.pid, money: o.money, from: o.from, to: o.to };
      const parsed = parseReportFilter(typed, await commandZone(store));
      for (const [field, value] of Object.entries(typed)) {
        const bad = parsed.problems[field as keyof typeof typed];
        if (bad || value?.trim() === "") throw new CliError(`--${field} ${bad?.message ?? "must not be empty"}`);
      }
      const rows = (await store.browse.searchReports({ ...parsed.filter, limit: intArg("--limit", o.limit, { min: 1 })! })).map(reportView);
      if (o.json) return printJson(rows);
      const rejected = o.outcome === "rejected";
      printTable(
        rows.map((r) => ({ ...r, amount: r.amount_cents === null ? "" : showYuan(r.amount_cents), reason: r.reason.length > 60 ? `${r.reason.slice(0, 57)}...` : r.reason })),
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
  report
    .command("bounds")
    .description("unmatched reports per signer and day: stored, and counted past report_unmatched_daily (not stored)")
    .addHelpText("after", examples("xpay report bounds", "xpay report bounds --days 30 --json"))
    .option("--days <n>", "this many days back, today included", "7")
    .option("--json", "print JSON")
    .action(async (o: { days: string; json?: boolean }) => {
      const gw = cli.open();
      const days = Math.min(intArg("--days", o.days, { min: 1 })!, 3650);
      const since = startOfDay(gw.clock.now()) - (days - 1) * 86_400;
      const rows = (await gw.store.listReportBounds({ sinceDay: since, limit: 1000 })).map((b) => {
        const cut = b.key.lastIndexOf(":");
        // Days are China days (UTC+8), as the daily limits.
        return { day: new Date((b.day + 8 * 3600) * 1000).toISOString().slice(0, 10), signer: b.key.slice(0, cut), kind: b.key.slice(cut + 1), stored: b.stored, not_stored: b.dropped, last_at: showTime(b.lastAt) };
      });
      if (o.json) return printJson({ bound: (await gw.settings()).int("report_unmatched_daily"), rows });
      printTable(rows, ["day", "signer", "kind", "stored", "not_stored", "last_at"]);
    });
  report
    .command("assign <report_id> <trade_no>")
    .description("pay an order with an unmatched payment report (money arrived, no order matched; see report list --outcome unmatched): pending, or ended within match_window of the payment")
    .addHelpText(
      "after",
      examples(
        'xpay report assign 42 20261123203000123456 --reason "payer paid 9.99 instead of 10.00"',
        'xpay report assign 42 20261123203000123456 --reason "客户截图确认" --json',
      ),
    )
    .requiredOption("--reason <text>", "why this money belongs to this order (kept in the audit log and on the report)")
    .option("--json", "print JSON")
    .action(async (reportId: string, tradeNo: string, o: { reason: string; json?: boolean }) => {
      const gw = cli.open();
      const r = await assignReportAs(gw, CLI_ACTOR, requireInt("report_id", reportId, { min: 1 }), tradeNo, o.reason);
      if (!r.ok) throw new CliError(r.refusal.message);
      const n = await gw.store.getNotification(tradeNo);
      if (o.json) return printJson({ report: reportView(r.value.report), trade_no: tradeNo, status: "paid", notification: n ? n.status : null });
      console.log(`report ${reportId} paid order ${tradeNo}${n ? "; the merchant's notification is queued (a running serve sends it)" : " (no notify_url: nothing to notify)"}`);
    });
}

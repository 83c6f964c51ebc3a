// `xpay order close-pending`: the console's bulk close for orders chosen by a filter instead of
// ticks (core/order-bulk.ts closePendingAs): pending orders only, a reason required, at most
// BULK_MAX at once, each order closed and audited as the console's bulk close does, actor `cli`.
// `--dry-run` lists what would be closed and changes nothing.
import type { Command } from "commander";
import { CLI_ACTOR } from "../core/admin/audit.ts";
import { BULK_MAX, closePendingAs } from "../core/order-bulk.ts";
import { formatYuan, showYuan } from "../core/money.ts";
import { type Cli, CliError, intArg, printJson, printTable } from "./context.ts";
import { examples } from "./help.ts";
import { filterFromOptions, filterOptions } from "./order-filter.ts";
import { commandZone, showTime } from "./time.ts";

export function registerClosePending(order: Command, cli: Cli): void {
  filterOptions(order.command("close-pending"), ["status", "paid_from", "paid_to"])
    .description(`close the pending orders a filter selects (the console's bulk close), at most ${BULK_MAX} at once, audited with the reason`)
    .addHelpText(
      "after",
      examples(
        'xpay order close-pending --pid 1001 --to "2026-11-23 12:00" --reason "商户下线" --dry-run',
        'xpay order close-pending --pid 1001 --to "2026-11-23 12:00" --reason "商户下线"',
        'xpay order close-pending --account 3 --reason "账户停用" --limit 200   # the newest 200; run again for more',
      ),
    )
    .requiredOption("--reason <text>", "why (kept in the audit log of each order)")
    .option("--dry-run", "only list the orders it would close")
    .option("--limit <n>", `close at most n (1-${BULK_MAX}), newest first, even when more match`)
    .option("--json", "print JSON")
    .action(async (o: Record<string, string | boolean | undefined> & { reason: string; dryRun?: boolean; limit?: string; json?: boolean }) => {
      const gw = cli.open(); // first: it reads the timezone setting the dates are in
      const { typed, parsed } = filterFromOptions(o, await commandZone(gw.store));
      // Every pending order is a payer on a cashier page right now: closing them all takes a filter.
      if (Object.keys(typed).length === 0) throw new CliError("choose the orders: give at least one of --pid, --from, --to, --account, --pay-type, --search, --ip, --amount-min, --amount-max");
      const { after: _, status: __, ...filter } = parsed.filter;
      const limit = intArg("--limit", o.limit, { min: 1 });
      if (limit !== undefined && limit > BULK_MAX) throw new CliError(`--limit must be at most ${BULK_MAX} (the console's bulk cap)`);
      const r = await closePendingAs(gw, CLI_ACTOR, filter, o.reason, { dryRun: o.dryRun, limit, selection: typed as Record<string, string> });
      if (!r.ok) throw new CliError(r.message);
      const rows = r.orders.map((x) => ({ trade_no: x.tradeNo, out_trade_no: x.outTradeNo, pid: x.pid, amount: showYuan(x.amount), created_at: showTime(x.createdAt) }));
      if (r.dryRun) {
        // Machine output names its unit: cents.
        if (o.json) return printJson({ dry_run: true, count: rows.length, orders: r.orders.map((x, i) => ({ ...rows[i], amount: undefined, amount_cents: x.amount, amount_yuan: formatYuan(x.amount) })) });
        if (rows.length === 0) return console.log("no pending order matches");
        printTable(rows, ["trade_no", "out_trade_no", "pid", "amount", "created_at"]);
        return console.log(`${rows.length} pending order(s) would be closed (dry run: nothing changed)`);
      }
      const { done, skipped } = r.outcome;
      if (o.json) return printJson({ dry_run: false, closed: done, skipped: skipped.map((s) => ({ trade_no: s.tradeNo, code: s.code })) });
      if (rows.length === 0) return console.log("no pending order matches");
      console.log(`${done.length} order(s) closed${skipped.length ? `, ${skipped.length} skipped (no longer pending)` : ""}`);
    });
}

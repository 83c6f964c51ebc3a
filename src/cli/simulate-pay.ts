// `xpay simulate-pay TRADE_NO`: the operator says the order was paid. It runs the same settlement
// as a phone's report (stored as an operator report), so a developer sees exactly what a real
// payment does: the status, the outbox row and, with --deliver, the notification itself.
import type { Command } from "commander";
import pc from "picocolors";
import { deliverDue } from "../core/notify/deliver.ts";
import { CLI_ACTOR } from "../core/admin/audit.ts";
import { simulatePayAs } from "../core/simulate-pay.ts";
import { type Cli, CliError, printJson } from "./context.ts";
import { examples } from "./help.ts";
import { deliverAndReport } from "./notify.ts";

export function register(program: Command, cli: Cli): void {
  program
    .command("simulate-pay <trade_no>")
    .description("mark an order paid as if its payment had been reported, and queue its notification")
    .addHelpText(
      "after",
      examples(
        "xpay simulate-pay 20261123203000123456   # a running serve sends the notification",
        "xpay simulate-pay 20261123203000123456 --deliver   # no server running: send it from here",
        'xpay simulate-pay 20261123203000123456 --reason "支付宝账单 10:02 ¥9.98"   # kept in the audit log',
      ),
    )
    .option("--api-trade-no <id>", "third-party transaction number to record")
    .option("--buyer <buyer>", "payer account to record")
    .option("--reason <text>", "why the order is paid (kept in the audit log with the order's state before and after)")
    .option("--deliver", "send the notification from this process now (when no `xpay serve` is running)")
    .option("--json", "print JSON")
    .action(async (tradeNo: string, o: { apiTradeNo?: string; buyer?: string; reason?: string; deliver?: boolean; json?: boolean }) => {
      const gw = cli.open();
      if ((o.reason?.length ?? 0) > 500) throw new CliError("--reason is too long (at most 500 characters)");
      const r = await simulatePayAs(gw, CLI_ACTOR, tradeNo, { apiTradeNo: o.apiTradeNo, buyer: o.buyer }, o.reason);
      if (!r) throw new CliError(`no order ${tradeNo}`);
      const paid = r.outcome === "matched";
      const queued = r.pay?.kind === "paid" && r.pay.notificationId !== null;
      if (o.json) {
        if (queued && o.deliver) await deliverDue(gw);
        const n = await gw.store.getNotification(tradeNo);
        printJson({ trade_no: tradeNo, paid, outcome: r.outcome, reason: r.reason, report_id: r.reportId, notification: n ? { status: n.status, attempts: n.attempts } : null });
      } else {
        if (!paid) throw new CliError(r.reason);
        console.log(`${pc.green("paid")} ${tradeNo}${queued ? "; notification queued" : pc.dim(" (no notify_url: no notification)")}`);
        if (queued && o.deliver) await deliverAndReport(cli, tradeNo);
      }
      if (!paid) process.exitCode = 1;
    });
}

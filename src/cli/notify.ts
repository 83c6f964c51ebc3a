// `xpay notify list | show | replay`: the notification outbox. Replay re-queues a row (also a
// delivered or failed one) for now; a running `serve` picks it up within a second, or
// `--deliver` sends it from this process when no server runs.
import type { Command } from "commander";
import pc from "picocolors";
import { CLI_ACTOR } from "../core/admin/audit.ts";
import { deliverDue } from "../core/notify/deliver.ts";
import { replayNotificationAs } from "../core/order-actions.ts";
import type { Notification } from "../core/store.ts";
import { type Cli, CliError, intArg, printJson, printTable } from "./context.ts";
import { examples } from "./help.ts";
import { showTimeMs } from "./time.ts";

const STATUSES = ["pending", "delivered", "failed"];
const ms = showTimeMs;

export function notificationView(n: Notification) {
  return {
    trade_no: n.tradeNo, family: n.family, method: n.method, url: n.url, status: n.status, attempts: n.attempts,
    next_attempt_at: n.status === "pending" ? ms(n.nextAttemptAt) : "", created_at: ms(n.createdAt), delivered_at: ms(n.deliveredAt),
  };
}

export function register(program: Command, cli: Cli): void {
  const notify = program
    .command("notify")
    .description("merchant notifications (the outbox)")
    .addHelpText("after", examples("xpay notify list --status failed", "xpay notify show 20261123203000123456"));

  notify
    .command("list")
    .description("list notifications, newest first")
    .addHelpText("after", examples("xpay notify list", "xpay notify list --status failed --limit 20 --json"))
    .option("--status <status>", STATUSES.join(" / "))
    .option("--limit <n>", "at most n notifications", "50")
    .option("--json", "print JSON")
    .action(async (o: { status?: string; limit: string; json?: boolean }) => {
      if (o.status !== undefined && !STATUSES.includes(o.status)) throw new CliError(`--status must be one of: ${STATUSES.join(", ")}`);
      const rows = (await cli.open().store.listNotifications({ status: o.status, limit: intArg("--limit", o.limit, { min: 1 }) })).map(notificationView);
      if (o.json) return printJson(rows);
      printTable(rows, ["trade_no", "family", "method", "status", "attempts", "next_attempt_at", "url"]);
    });

  notify
    .command("show <trade_no>")
    .description("one notification with every attempt (time, HTTP status, first 512 bytes of the answer, error)")
    .addHelpText("after", examples("xpay notify show 20261123203000123456", "xpay notify show 20261123203000123456 --json"))
    .option("--json", "print JSON")
    .action(async (tradeNo: string, o: { json?: boolean }) => {
      const n = await cli.open().store.getNotification(tradeNo);
      if (!n) throw new CliError(`no notification for order ${tradeNo} (an order without notify_url has none)`);
      const attempts = n.attempts_log.map((a, i) => ({
        n: i + 1, at: ms(a.attemptedAt), ms: a.durationMs, http: a.httpStatus ?? "", ack: a.acknowledged, error: a.error, body: a.body,
      }));
      // The stored parameters are unsigned: signatures are computed at each attempt.
      if (o.json) return printJson({ ...notificationView(n), params: n.params, attempts });
      for (const [k, v] of Object.entries(notificationView(n))) console.log(`${pc.dim(k.padEnd(16))} ${v}`);
      console.log(`${pc.dim("params".padEnd(16))} ${JSON.stringify(n.params)}`);
      printTable(attempts.map((a) => ({ ...a, body: a.body.replace(/\s+/g, " ").slice(0, 60) })), ["n", "at", "ms", "http", "ack", "error", "body"]);
    });

  notify
    .command("replay <trade_no>")
    .description("send the notification again now (also when delivered or failed)")
    .addHelpText("after", examples("xpay notify replay 20261123203000123456   # a running serve sends it within a second", "xpay notify replay 20261123203000123456 --deliver"))
    .option("--deliver", "send it from this process now (when no `xpay serve` is running)")
    .action(async (tradeNo: string, o: { deliver?: boolean }) => {
      const r = await replayNotificationAs(cli.open(), CLI_ACTOR, tradeNo);
      if (!r.ok) throw new CliError(r.refusal.message);
      console.log(`notification for ${tradeNo} re-queued`);
      if (o.deliver) await deliverAndReport(cli, tradeNo);
    });
}

/** One in-process delivery pass, then this order's latest attempt. Shared with simulate-pay. */
export async function deliverAndReport(cli: Cli, tradeNo: string): Promise<void> {
  const gw = cli.open();
  await deliverDue(gw);
  const n = await gw.store.getNotification(tradeNo);
  const last = n?.attempts_log.at(-1);
  if (!n || !last) return void console.log(pc.dim("no notification was due"));
  const line = `notification ${n.status}: HTTP ${last.httpStatus ?? "-"} ${last.error ? `(${last.error})` : ""}`;
  console.log(n.status === "delivered" ? pc.green(line) : pc.yellow(`${line}; next attempt ${n.status === "pending" ? ms(n.nextAttemptAt) : "none"}`));
}

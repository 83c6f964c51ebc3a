// `xpay notify list | show | replay | health | failures | resend`: the notification outbox. Replay re-queues a
// row (also a delivered or failed one) for now; a running `serve` picks it up within a second, or
// `--deliver` sends it from this process when no server runs. Health and resend are the console's
// per-merchant delivery view and bulk resend (core/notify/health.ts), audited as `cli`.
import type { Command } from "commander";
import pc from "picocolors";
import { CLI_ACTOR } from "../core/admin/audit.ts";
import { OUTBOX_FILTER_FIELDS, OUTBOX_STATUSES, parseOutboxFilter } from "../core/browse/outbox-query.ts";
import { deliverDue } from "../core/notify/deliver.ts";
import { deliveryState, resendFailingAs } from "../core/notify/health.ts";
import { replayNotificationAs } from "../core/order-actions.ts";
import type { MerchantDelivery, Notification } from "../core/store.ts";
import { type Cli, CliError, intArg, printJson, printTable, requireInt } from "./context.ts";
import { examples } from "./help.ts";
import { commandZone, showTimeMs } from "./time.ts";

const ms = showTimeMs;

export function notificationView(n: Notification) {
  return {
    trade_no: n.tradeNo, family: n.family, method: n.method, url: n.url, status: n.status, attempts: n.attempts,
    next_attempt_at: n.status === "pending" ? ms(n.nextAttemptAt) : "", created_at: ms(n.createdAt), delivered_at: ms(n.deliveredAt),
  };
}

export function deliveryView(d: MerchantDelivery) {
  return {
    pid: d.pid, state: deliveryState(d), last_success: ms(d.lastSuccessAt), failing_since: ms(d.failingSince), last_error: d.lastError,
    pending: d.pending, failing: d.failing, given_up: d.givenUp, delivered: d.delivered,
  };
}

export function register(program: Command, cli: Cli): void {
  const notify = program
    .command("notify")
    .description("merchant notifications (the outbox)")
    .addHelpText("after", examples("xpay notify list --status failed", "xpay notify show 20261123203000123456"));

  notify
    .command("list")
    .description("list notifications, newest first (the console's outbox page)")
    .addHelpText("after", examples("xpay notify list", "xpay notify list --status failed --limit 20 --json", "xpay notify list --pid 1001 --from 2026-11-20 --to 2026-11-23"))
    .option("--status <status>", OUTBOX_STATUSES.join(" / "))
    .option("--pid <pid>", "only this merchant's orders")
    .option("--from <date>", "created on or after: 2026-11-23 or \"2026-11-23 14:30\" (in the timezone setting)")
    .option("--to <date>", "created up to the end of this day (or before this time)")
    .option("--limit <n>", "at most n notifications", "50")
    .option("--json", "print JSON")
    .action(async (o: { status?: string; pid?: string; from?: string; to?: string; limit: string; json?: boolean }) => {
      const gw = cli.open(); // first: it reads the timezone setting the dates are in
      const parsed = parseOutboxFilter({ status: o.status, pid: o.pid, from: o.from, to: o.to }, await commandZone(gw.store));
      for (const f of OUTBOX_FILTER_FIELDS) {
        if (parsed.problems[f]) throw new CliError(`--${f} ${parsed.problems[f]!.message}`);
        if (o[f]?.trim() === "") throw new CliError(`--${f} must not be empty`);
      }
      const rows = (await gw.store.listNotifications({ ...parsed.filter, limit: intArg("--limit", o.limit, { min: 1 }) })).map(notificationView);
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

  notify
    .command("health")
    .description("each merchant's delivery: last success, failing since, last error, queue depth, given up")
    .addHelpText("after", examples("xpay notify health", "xpay notify health --pid 1001 --json"))
    .option("--pid <pid>", "one merchant")
    .option("--json", "print JSON")
    .action(async (o: { pid?: string; json?: boolean }) => {
      const pid = intArg("--pid", o.pid, { min: 1 });
      const rows = (await cli.open().store.deliveryHealth(pid)).map(deliveryView);
      if (pid !== undefined && rows.length === 0) throw new CliError(`no merchant ${pid}`);
      if (o.json) return printJson(pid === undefined ? rows : rows[0]);
      printTable(rows, ["pid", "state", "last_success", "failing_since", "pending", "failing", "given_up", "last_error"]);
    });

  notify
    .command("failures")
    .description("undelivered notifications that failed, grouped by merchant and last error (ECONNREFUSED x28, merchant 1001, latest ...)")
    .addHelpText("after", examples("xpay notify failures", "xpay notify failures --days 1 --json"))
    .option("--days <n>", "notifications created in the last n days", "7")
    .option("--limit <n>", "at most n groups", "50")
    .option("--json", "print JSON")
    .action(async (o: { days: string; limit: string; json?: boolean }) => {
      const gw = cli.open();
      const days = intArg("--days", o.days, { min: 1 })!;
      const groups = await gw.store.failureGroups({ sinceMs: gw.clock.nowMs() - days * 86_400_000, limit: intArg("--limit", o.limit, { min: 1 })! });
      const rows = groups.map((g) => ({ pid: g.pid, error: g.error, count: g.count, given_up: g.givenUp, first: ms(g.firstAt), latest: ms(g.lastAt) }));
      if (o.json) return printJson(rows);
      printTable(rows, ["pid", "error", "count", "given_up", "first", "latest"]);
    });

  notify
    .command("resend")
    .description("send again every notification of a merchant that failed and is not delivered (retrying or given up), e.g. after its server is fixed")
    .addHelpText("after", examples('xpay notify resend --pid 1001 --failing --reason "商户已修复通知地址"', 'xpay notify resend --pid 1001 --failing --reason "server back" --deliver'))
    .requiredOption("--pid <pid>", "the merchant")
    .option("--failing", "every undelivered notification that failed at least once (the only selection for now; required)")
    .requiredOption("--reason <text>", "why (kept in the audit log)")
    .option("--deliver", "send them from this process now (when no `xpay serve` is running)")
    .option("--json", "print JSON")
    .action(async (o: { pid: string; failing?: boolean; reason: string; deliver?: boolean; json?: boolean }) => {
      const pid = requireInt("--pid", o.pid, { min: 1 });
      if (!o.failing) throw new CliError("say what to resend: --failing (every undelivered notification of the merchant that failed at least once)");
      const gw = cli.open();
      const r = await resendFailingAs(gw, CLI_ACTOR, pid, o.reason);
      if (!r.ok) throw new CliError(r.message);
      if (o.deliver) await deliverDue(gw);
      const [now] = await gw.store.deliveryHealth(pid);
      const out = { pid, requeued: r.requeued, delivered_since: now!.delivered - r.before.delivered, pending: now!.pending };
      if (o.json) return printJson(out);
      console.log(`re-queued ${r.requeued} notifications of merchant ${pid}${o.deliver ? `; ${out.delivered_since} delivered, ${out.pending} pending` : " (a running serve sends them within a second)"}`);
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

import type { Command } from "commander";
import pc from "picocolors";
import { formatYuan, showYuan } from "../core/money.ts";
import { CLI_ACTOR } from "../core/admin/audit.ts";
import { closeOrderAs, confirmByHandAs } from "../core/order-actions.ts";
import { effectiveStatus, STATUS_NAMES } from "../core/order-state.ts";
import type { Order } from "../core/types.ts";
import { type Cli, CliError, intArg, printJson, printTable, useServedBaseUrl } from "./context.ts";
import { examples } from "./help.ts";
import { commandZone, showTime } from "./time.ts";
import { filterFromOptions, filterOptions } from "./order-filter.ts";
import { registerClosePending } from "./order-close-pending.ts";
import { printOrderQr } from "./order-qr.ts";

/** An order's fields around its amounts, which each view gives in its own unit. */
function orderFields<A extends Record<string, unknown>>(o: Order, now: number, amounts: A) {
  const status = effectiveStatus(o, now);
  return {
    trade_no: o.tradeNo, out_trade_no: o.outTradeNo, pid: o.pid, family: o.family, pay_type: o.payType, name: o.name,
    ...amounts, account_id: o.accountId,
    status, status_text: STATUS_NAMES[status], fail_reason: o.failReason, notify_url: o.notifyUrl, return_url: o.returnUrl,
    param: o.param, clientip: o.clientip, device: o.device, api_trade_no: o.apiTradeNo, buyer: o.buyer,
    created_at: showTime(o.createdAt), expire_time: showTime(o.expireTime), paid_at: showTime(o.paidAt),
  };
}

/** --json: amounts in integer cents (and as yuan text), named so. */
export function orderView(o: Order, now: number) {
  return orderFields(o, now, {
    amount_cents: o.amount, amount_yuan: formatYuan(o.amount),
    trade_amount_cents: o.tradeAmount, trade_amount_yuan: o.tradeAmount === null ? null : formatYuan(o.tradeAmount),
  });
}

/** An order as a person reads it: amounts with their unit (¥9.98). */
export function orderShown(o: Order, now: number) {
  return orderFields(o, now, { amount: showYuan(o.amount), trade_amount: o.tradeAmount === null ? "" : showYuan(o.tradeAmount) });
}

export function register(program: Command, cli: Cli): Command {
  const order = program
    .command("order")
    .description("orders")
    .addHelpText("after", examples("xpay order list --status pending", "xpay order inspect 20261123203000123456", 'xpay order confirm 20261123203000123456 --reason "支付宝账单 10:02 ¥9.98"'));

  order
    .command("inspect <trade_no>")
    .description("show one order")
    .addHelpText("after", examples("xpay order inspect 20261123203000123456", "xpay order inspect 20261123203000123456 --qr   # scan the payment code with a phone"))
    .option("--json", "print JSON")
    .option("--qr", "also draw the order's payment QR code in the terminal")
    .action(async (tradeNo: string, o: { json?: boolean; qr?: boolean }) => {
      const gw = cli.open();
      const found = await gw.store.getOrder(tradeNo);
      if (!found) throw new CliError(`no order ${tradeNo}`);
      await useServedBaseUrl(gw);
      if (o.json) return printJson(orderView(found, gw.clock.now()));
      for (const [k, val] of Object.entries(orderShown(found, gw.clock.now()))) console.log(`${pc.dim(k.padEnd(13))} ${val ?? ""}`);
      console.log(`${pc.dim("cashier".padEnd(13))} ${gw.cashierUrl(found.tradeNo)}`);
      if (o.qr) await printOrderQr(gw, found);
    });

  filterOptions(order.command("list"))
    .description("list orders, newest first, under a filter (the console's orders list)")
    .addHelpText(
      "after",
      examples(
        "xpay order list",
        "xpay order list --pid 1001 --status paid --limit 10 --json",
        "xpay order list --status expired --from 2026-11-01 --to 2026-11-23",
        "xpay order list --search 9.98   # payable amount 9.98 (or out_trade_no 9.98)",
        "xpay order list --search M20261123-0042",
        "xpay order list --ip 203.0.113.7 --amount-min 50 --amount-max 100 --paid-from 2026-11-23",
      ),
    )
    .option("--limit <n>", "at most n orders", "50")
    .option("--json", "print JSON")
    .action(async (o: Record<string, string | boolean | undefined> & { limit: string; json?: boolean }) => {
      const gw = cli.open();
      const { parsed } = filterFromOptions(o, await commandZone(gw.store));
      const limit = intArg("--limit", o.limit, { min: 1 })!;
      const found = await gw.store.browse.searchOrders({ ...parsed.filter, limit, now: gw.clock.now() });
      if (o.json) return printJson(found.map((x) => orderView(x, gw.clock.now())));
      printTable(found.map((x) => orderShown(x, gw.clock.now())), ["trade_no", "out_trade_no", "pid", "pay_type", "amount", "trade_amount", "status_text", "created_at"]);
    });
  order
    .command("close <trade_no>")
    .description("close a pending order (as a merchant's cancel call does): it can no longer be paid")
    .addHelpText("after", examples("xpay order close 20261123203000123456"))
    .action(async (tradeNo: string) => {
      const r = await closeOrderAs(cli.open(), CLI_ACTOR, tradeNo);
      if (!r.ok) throw new CliError(r.refusal.message);
      console.log(`order ${tradeNo} closed`);
    });
  order
    .command("confirm <trade_no>")
    .description("confirm a payment by hand (补单): pay a pending or timed-out order whose money arrived, and notify the merchant")
    .addHelpText(
      "after",
      examples(
        'xpay order confirm 20261123203000123456 --reason "支付宝账单 2026-11-23 10:02 ¥9.98"',
        'xpay order confirm 20261123203000123456 --reason "bank statement line 42" --json',
      ),
    )
    .requiredOption("--reason <text>", "what shows the money arrived (kept in the audit log and on the order)")
    .option("--json", "print JSON")
    .action(async (tradeNo: string, o: { reason: string; json?: boolean }) => {
      const gw = cli.open();
      const r = await confirmByHandAs(gw, CLI_ACTOR, tradeNo, o.reason);
      if (!r.ok) throw new CliError(r.refusal.message);
      const n = await gw.store.getNotification(tradeNo);
      if (o.json) return printJson({ ...orderView(r.value, gw.clock.now()), notification: n ? n.status : null });
      console.log(`order ${tradeNo} paid by hand${n ? "; the merchant's notification is queued (a running serve sends it)" : " (no notify_url: nothing to notify)"}`);
    });
  registerClosePending(order, cli);
  return order;
}

import type { Command } from "commander";
import pc from "picocolors";
import { formatYuan } from "../core/money.ts";
import { cancelOrder } from "../core/cancel-order.ts";
import { effectiveStatus, parseStatusWord, STATUS_NAMES, STATUS_WORDS } from "../core/order-state.ts";
import type { Order } from "../core/types.ts";
import { type Cli, CliError, intArg, printJson, printTable, useServedBaseUrl } from "./context.ts";
import { examples } from "./help.ts";
import { showTime } from "./time.ts";
import { printOrderQr } from "./order-qr.ts";

export function orderView(o: Order, now: number) {
  const status = effectiveStatus(o, now);
  return {
    trade_no: o.tradeNo, out_trade_no: o.outTradeNo, pid: o.pid, family: o.family, pay_type: o.payType, name: o.name,
    amount: formatYuan(o.amount), trade_amount: o.tradeAmount === null ? "" : formatYuan(o.tradeAmount), account_id: o.accountId,
    status, status_text: STATUS_NAMES[status], fail_reason: o.failReason, notify_url: o.notifyUrl, return_url: o.returnUrl,
    param: o.param, clientip: o.clientip, device: o.device, api_trade_no: o.apiTradeNo, buyer: o.buyer,
    created_at: showTime(o.createdAt), expire_time: showTime(o.expireTime), paid_at: showTime(o.paidAt),
  };
}

const STATUS_HELP = Object.keys(STATUS_WORDS).join(", ");

export function register(program: Command, cli: Cli): Command {
  const order = program
    .command("order")
    .description("orders")
    .addHelpText("after", examples("xpay order list --status pending", "xpay order inspect 20261123203000123456"));

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
      const v = orderView(found, gw.clock.now());
      if (o.json) return printJson(v);
      for (const [k, val] of Object.entries(v)) console.log(`${pc.dim(k.padEnd(13))} ${val ?? ""}`);
      console.log(`${pc.dim("cashier".padEnd(13))} ${gw.cashierUrl(found.tradeNo)}`);
      if (o.qr) await printOrderQr(gw, found);
    });

  order
    .command("list")
    .description("list orders, newest first")
    .addHelpText("after", examples("xpay order list", "xpay order list --pid 1001 --status paid --limit 10 --json"))
    .option("--pid <pid>", "only this merchant")
    .option("--status <status>", `${STATUS_HELP} (or 1-5)`)
    .option("--limit <n>", "at most n orders", "50")
    .option("--json", "print JSON")
    .action(async (o: { pid?: string; status?: string; limit: string; json?: boolean }) => {
      const gw = cli.open();
      const status = o.status === undefined ? undefined : parseStatusWord(o.status);
      if (status === null) throw new CliError(`--status must be one of: ${STATUS_HELP} (or 1-5)`);
      // Stored status 1 includes orders the sweeper has not timed out yet; filter on what they read as.
      const rows = (await gw.store.listOrders({ pid: intArg("--pid", o.pid), status: status === 4 ? undefined : status, limit: intArg("--limit", o.limit, { min: 1 }) }))
        .map((x) => orderView(x, gw.clock.now()))
        .filter((x) => status === undefined || x.status === status);
      if (o.json) return printJson(rows);
      printTable(rows, ["trade_no", "out_trade_no", "pid", "pay_type", "amount", "trade_amount", "status_text", "created_at"]);
    });
  order
    .command("close <trade_no>")
    .description("close a pending order (as a merchant's cancel call does): it can no longer be paid")
    .addHelpText("after", examples("xpay order close 20261123203000123456"))
    .action(async (tradeNo: string) => {
      const gw = cli.open();
      const found = await gw.store.getOrder(tradeNo);
      if (!found) throw new CliError(`no order ${tradeNo}`);
      const r = await cancelOrder(gw, found);
      if (!r.ok) throw new CliError(r.reason);
      console.log(`order ${tradeNo} closed`);
    });
  return order;
}

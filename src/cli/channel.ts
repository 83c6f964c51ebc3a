import type { Command } from "commander";
import pc from "picocolors";
import { watcherName, watchersNow } from "../core/clients/overview.ts";
import { removeAccount, type SaveAccountResult, saveAccount, setAccountEnabled } from "../core/account-actions.ts";
import { CLI_ACTOR } from "../core/admin/audit.ts";
import { removeRefusal } from "../core/channel-input.ts";
import { readTypedYuan, showYuan } from "../core/money.ts";
import { PAY_TYPES } from "../core/order-input.ts";
import type { ChannelFields } from "../core/store.ts";
import type { ChannelAccount } from "../core/types.ts";
import { createTestPayment, TEST_PAY_DEFAULT } from "../core/test-pay.ts";
import { type Cli, CliError, intArg, printJson, printTable, requireInt, useServedBaseUrl } from "./context.ts";
import { examples } from "./help.ts";

/** --json: amounts in integer cents, named so. */
const view = (a: ChannelAccount) => ({
  id: a.id, pid: a.pid, pay_type: a.payType, code: a.code, name: a.name, enabled: a.enabled,
  min_amount_cents: a.minAmount, max_amount_cents: a.maxAmount, day_amount_cents: a.dayAmount, sort: a.sort, qrcode: a.qrcode, scheme: a.scheme, remark: a.remark,
});

/** A bound as the table shows it: ¥ and yuan, or "none" for 0. */
const bound = (cents: number) => (cents > 0 ? showYuan(cents) : "none");

/** The limits as saved, after add and edit: a cents habit (--max 50000) shows as ¥50000.00 at once. */
const limits = (a: ChannelAccount) => `min ${bound(a.minAmount)}, max ${bound(a.maxAmount)}, day ${bound(a.dayAmount)}`;

type Opts = Record<string, string | undefined> & { json?: boolean; force?: boolean };

/** A bound typed in yuan (500 or 500.00); 0 = no limit. */
export function yuanArg(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const r = readTypedYuan(flag, value, { zero: true });
  if (!r.ok) throw new CliError(r.problem);
  return r.cents;
}

/** The options add and edit share, read into the account's fields (undefined = not given). */
function fieldsFrom(o: Opts): Partial<ChannelFields> {
  return {
    pid: intArg("--pid", o.pid), payType: o.payType, code: o.code, name: o.name, qrcode: o.qrcode, scheme: o.scheme, remark: o.remark,
    minAmount: yuanArg("--min", o.min), maxAmount: yuanArg("--max", o.max), dayAmount: yuanArg("--day", o.day), sort: intArg("--sort", o.sort),
  };
}

function saved(r: SaveAccountResult, id?: number): ChannelAccount {
  if (r.kind === "not_found") throw new CliError(`no account with id ${id}`);
  if (r.kind === "refused") throw new CliError(r.reason);
  return r.account;
}

const PAY_TYPE_HELP = PAY_TYPES.join(" / ");
const QR_HELP = "the QR code content the payer scans: alipay https://qr.alipay.com/..., wxpay wxp://..., qqpay https://i.qianbao.qq.com/...";
const FORCE_HELP = "save a --qrcode that is a URL but not the pay type's usual form (a 赞赏码, another host)";
const ADD_EXAMPLE = 'xpay channel add --pid 0 --pay-type alipay --code alipay_qr --name "Alipay A" --qrcode https://qr.alipay.com/fkx0001 --max 500';

export function register(program: Command, cli: Cli): void {
  const channel = program
    .command("channel")
    .description("receiving accounts (static QR codes) that orders are allocated to")
    .addHelpText("after", examples(ADD_EXAMPLE, "xpay channel list", "xpay channel edit 1 --max 1000"));

  channel
    .command("add")
    .description("add a receiving account; amounts are in yuan (500 or 500.00), 0 = no limit")
    .addHelpText("after", examples(ADD_EXAMPLE, 'xpay channel add --pid 1001 --pay-type wxpay --code wx_main --name "WeChat main" --qrcode wxp://f2f0xxxxxxxx --min 1 --max 5000 --day 50000'))
    .requiredOption("--pid <pid>", "owner merchant, or 0 for an account shared by every merchant")
    .requiredOption("--pay-type <type>", PAY_TYPE_HELP)
    .requiredOption("--code <code>", "channel code, unique per merchant and pay type (monitoring clients report it)")
    .requiredOption("--name <name>", "account name")
    .requiredOption("--qrcode <content>", QR_HELP)
    .option("--force", FORCE_HELP)
    .option("--scheme <url>", "app launch URL opened on mobile")
    .option("--min <yuan>", "minimum per order, in yuan (0 = none)")
    .option("--max <yuan>", "maximum per order, in yuan (0 = none)")
    .option("--day <yuan>", "daily limit of paid amounts, in yuan (0 = none)")
    .option("--sort <n>", "lower first")
    .option("--remark <text>", "remark")
    .option("--json", "print JSON")
    .action(async (o: Opts) => {
      requireInt("--pid", o.pid);
      const gw = cli.open();
      const a = saved(await saveAccount(gw, CLI_ACTOR, null, fieldsFrom(o), { forceQr: o.force === true }));
      if (o.json) return printJson(view(a));
      console.log(`${pc.green("account added")}  id ${pc.bold(String(a.id))}  ${a.payType} ${a.name}${a.pid === 0 ? pc.dim(" (shared)") : ""}  ${limits(a)}`);
    });

  channel
    .command("edit <id>")
    .description("change an account's fields (the others stay); the same checks as add; amounts are in yuan")
    .addHelpText("after", examples("xpay channel edit 1 --max 1000   # ¥1000.00 per order at most", "xpay channel edit 1 --qrcode https://qr.alipay.com/fkx0002 --scheme ''"))
    .option("--pid <pid>", "owner merchant, or 0 for shared (only while no order used the account)")
    .option("--pay-type <type>", `${PAY_TYPE_HELP} (only while no order used the account)`)
    .option("--code <code>", "channel code")
    .option("--name <name>", "account name")
    .option("--qrcode <content>", QR_HELP)
    .option("--force", FORCE_HELP)
    .option("--scheme <url>", "app launch URL opened on mobile (\"\" removes it)")
    .option("--min <yuan>", "minimum per order, in yuan (0 = none)")
    .option("--max <yuan>", "maximum per order, in yuan (0 = none)")
    .option("--day <yuan>", "daily limit of paid amounts, in yuan (0 = none)")
    .option("--sort <n>", "lower first")
    .option("--remark <text>", "remark (\"\" removes it)")
    .option("--json", "print JSON")
    .action(async (idText: string, o: Opts) => {
      const id = requireInt("id", idText, { min: 1 });
      const patch = fieldsFrom(o);
      if (Object.values(patch).every((v) => v === undefined)) {
        throw new CliError("nothing to change: give at least one of --pid, --pay-type, --code, --name, --qrcode, --scheme, --min, --max, --day, --sort, --remark");
      }
      const a = saved(await saveAccount(cli.open(), CLI_ACTOR, id, patch, { forceQr: o.force === true }), id);
      if (o.json) return printJson(view(a));
      console.log(`account ${a.id} updated  ${limits(a)}`);
    });

  channel
    .command("remove <id>")
    .description("delete an account that no order used (otherwise disable it)")
    .addHelpText("after", examples("xpay channel remove 1"))
    .action(async (idText: string) => {
      const id = requireInt("id", idText, { min: 1 });
      const r = await removeAccount(cli.open(), CLI_ACTOR, id);
      const refusal = removeRefusal(id, r);
      if (refusal !== null) throw new CliError(refusal);
      console.log(`account ${id} removed`);
    });

  channel
    .command("list")
    .description("list receiving accounts (amounts in yuan; --json in cents)")
    .addHelpText("after", examples("xpay channel list", "xpay channel list --pid 1001 --json"))
    .option("--pid <pid>", "only this owner's accounts")
    .option("--json", "print JSON")
    .action(async (o: { pid?: string; json?: boolean }) => {
      const gw = cli.open();
      const watchers = await watchersNow(gw);
      // Who can report a payment on each account: an account nobody watches is never paid by a report.
      const all = (await gw.store.listChannels({ pid: intArg("--pid", o.pid) })).map((a) => ({ ...view(a), watched_by: (watchers.get(a.id) ?? []).map(watcherName) }));
      if (o.json) return printJson(all);
      printTable(
        all.map((a) => ({
          ...a, min: bound(a.min_amount_cents), max: bound(a.max_amount_cents), day: bound(a.day_amount_cents),
          watched_by: a.watched_by.length ? a.watched_by.join(",") : pc.yellow("unwatched"),
        })),
        ["id", "pid", "pay_type", "code", "name", "enabled", "min", "max", "day", "watched_by"],
      );
    });

  channel
    .command("test-pay <id>")
    .description("create a small test order on THIS account (no notify URL: no shop is told) and print its cashier link, to pay with a real phone")
    .addHelpText("after", examples("xpay channel test-pay 1", "xpay channel test-pay 1 --amount 0.50"))
    .option("--amount <yuan>", "amount in yuan, 0.01-100.00", TEST_PAY_DEFAULT)
    .option("--json", "print JSON")
    .action(async (idText: string, o: { amount: string; json?: boolean }) => {
      const gw = cli.open();
      await useServedBaseUrl(gw);
      const r = await createTestPayment(gw, CLI_ACTOR, requireInt("id", idText, { min: 1 }), o.amount);
      if (!r.ok) throw new CliError(r.reason);
      const cashier = `${gw.baseUrl}/pay/${encodeURIComponent(r.order.tradeNo)}`;
      if (o.json) return printJson({ trade_no: r.order.tradeNo, pid: r.merchant.pid, account_id: r.account.id, amount_cents: r.order.amount, trade_amount_cents: r.order.tradeAmount, cashier_url: cashier });
      console.log(`test order ${r.order.tradeNo} on account ${r.account.id} (merchant ${r.merchant.pid}, no notify URL)`);
      console.log(`pay ${showYuan(r.order.tradeAmount ?? r.order.amount)} at ${cashier}`);
      console.log(`watch it: xpay order inspect ${r.order.tradeNo}`);
    });

  const toggles = [
    ["disable", false, "disable an account: it takes no new orders (its pending orders can still be paid)"],
    ["enable", true, "enable an account: new orders can be allocated to it again"],
  ] as const;
  for (const [name, enabled, description] of toggles) {
    channel
      .command(`${name} <id>`)
      .description(description)
      .addHelpText("after", examples(`xpay channel ${name} 1`))
      .action(async (id: string) => {
        const a = await setAccountEnabled(cli.open(), CLI_ACTOR, requireInt("id", id, { min: 1 }), enabled);
        if (!a) throw new CliError(`no account with id ${id}`);
        console.log(`account ${a.id} ${enabled ? "enabled" : "disabled"}`);
      });
  }
}

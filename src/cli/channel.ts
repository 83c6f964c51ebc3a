import type { Command } from "commander";
import pc from "picocolors";
import { PAY_TYPE_PATTERN } from "../core/order-input.ts";
import type { ChannelAccount } from "../core/types.ts";
import { type Cli, CliError, intArg, printJson, printTable, requireInt } from "./context.ts";

const view = (a: ChannelAccount) => ({
  id: a.id, pid: a.pid, pay_type: a.payType, code: a.code, name: a.name, enabled: a.enabled,
  min_amount: a.minAmount, max_amount: a.maxAmount, day_amount: a.dayAmount, sort: a.sort, qrcode: a.qrcode, scheme: a.scheme,
});

export function register(program: Command, cli: Cli): void {
  const channel = program.command("channel").description("receiving accounts (static QR codes) that orders are allocated to");

  channel
    .command("add")
    .description("add a receiving account; amounts in cents, 0 = no limit")
    .requiredOption("--pid <pid>", "owner merchant, or 0 for an account shared by every merchant")
    .requiredOption("--pay-type <type>", "alipay / wxpay / qqpay ...")
    .requiredOption("--code <code>", "channel code (monitoring clients report it)")
    .requiredOption("--name <name>", "account name")
    .requiredOption("--qrcode <content>", "the QR code content (e.g. https://qr.alipay.com/...)")
    .option("--scheme <url>", "app launch URL opened on mobile")
    .option("--min <cents>", "minimum per order")
    .option("--max <cents>", "maximum per order")
    .option("--day <cents>", "daily limit")
    .option("--sort <n>", "lower first")
    .option("--remark <text>", "remark")
    .option("--json", "print JSON")
    .action(async (o: Record<string, string | undefined> & { json?: boolean }) => {
      const pid = requireInt("--pid", o.pid);
      if (!PAY_TYPE_PATTERN.test(o.payType!)) throw new CliError("--pay-type must be lowercase letters, digits or _ (e.g. alipay)");
      const gw = cli.open();
      if (pid !== 0 && !(await gw.store.getMerchant(pid))) throw new CliError(`no merchant with pid ${pid} (use --pid 0 for a shared account)`);
      const a = await gw.store.addChannel({
        pid, payType: o.payType!, code: o.code!, name: o.name!, qrcode: o.qrcode!, scheme: o.scheme, remark: o.remark,
        minAmount: intArg("--min", o.min), maxAmount: intArg("--max", o.max), dayAmount: intArg("--day", o.day), sort: intArg("--sort", o.sort),
        now: gw.clock.now(),
      });
      if (o.json) return printJson(view(a));
      console.log(`${pc.green("account added")}  id ${pc.bold(String(a.id))}  ${a.payType} ${a.name}${pid === 0 ? pc.dim(" (shared)") : ""}`);
    });

  channel
    .command("list")
    .description("list receiving accounts")
    .option("--pid <pid>", "only this owner's accounts")
    .option("--json", "print JSON")
    .action(async (o: { pid?: string; json?: boolean }) => {
      const all = (await cli.open().store.listChannels({ pid: intArg("--pid", o.pid) })).map(view);
      if (o.json) return printJson(all);
      printTable(all, ["id", "pid", "pay_type", "code", "name", "enabled", "min_amount", "max_amount", "day_amount"]);
    });

  for (const [name, enabled] of [["disable", false], ["enable", true]] as const) {
    channel
      .command(`${name} <id>`)
      .description(`${name} an account (a disabled account takes no new orders)`)
      .action(async (id: string) => {
        const a = await cli.open().store.updateChannel(requireInt("id", id, { min: 1 }), { enabled });
        if (!a) throw new CliError(`no account with id ${id}`);
        console.log(`account ${a.id} ${enabled ? "enabled" : "disabled"}`);
      });
  }
}

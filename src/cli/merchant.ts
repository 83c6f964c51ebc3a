import type { Command } from "commander";
import pc from "picocolors";
import { CLI_ACTOR } from "../core/admin/audit.ts";
import { revealMerchantSecret } from "../core/clients/setup.ts";
import { addMerchant, type MerchantProblem, setMerchantActive, updateMerchantOptions } from "../core/merchant-admin.ts";
import { rotateSecret } from "../core/merchant-keys.ts";
import { MERCHANT_SETTING_KEYS, VMQ_URL_KEYS } from "../core/merchant-settings.ts";
import type { Merchant } from "../core/types.ts";
import { type Cli, CliError, intArg, printJson, printTable, requireInt } from "./context.ts";
import { examples } from "./help.ts";

const view = (m: Merchant) => ({ pid: m.pid, name: m.name, active: m.active, notify_method: m.notifyMethod, v2_key: m.rsaPublicKey ? "yes" : "no", settings: m.settings });

async function mustGet(cli: Cli, pidText: string): Promise<Merchant> {
  const pid = requireInt("pid", pidText, { min: 1 });
  const m = await cli.open().store.getMerchant(pid);
  if (!m) throw new CliError(`no merchant with pid ${pid}`);
  return m;
}

export function register(program: Command, cli: Cli): void {
  const merchant = program
    .command("merchant")
    .description("merchants (pid and AppSecret)")
    .addHelpText("after", examples('xpay merchant add --name "My shop"', "xpay merchant list", "xpay merchant show 1001 --show-secret"));

  merchant
    .command("add")
    .description("add a merchant; prints its pid and AppSecret")
    .addHelpText("after", examples('xpay merchant add --name "My shop"', 'xpay merchant add --name "My shop" --pid 1001 --secret a1b2c3d4e5f60718293a4b5c6d7e8f90 --json'))
    .requiredOption("--name <name>", "merchant name")
    .option("--pid <pid>", "merchant id (default: next free from 1001)")
    .option("--secret <secret>", "AppSecret (default: 32 random hex characters)")
    .option("--json", "print JSON")
    .action(async (o: { name: string; pid?: string; secret?: string; json?: boolean }) => {
      const pid = intArg("--pid", o.pid, { min: 1 });
      const r = await addMerchant(cli.open(), CLI_ACTOR, { name: o.name, pid, secret: o.secret });
      if (r.kind === "refused") throw problemError(r.problems);
      const m = r.merchant;
      if (o.json) return printJson({ pid: m.pid, name: m.name, secret: m.secret });
      console.log(`${pc.green("merchant added")}  pid ${pc.bold(String(m.pid))}  name ${m.name}`);
      console.log(`AppSecret ${pc.bold(m.secret)}  ${pc.dim("(keep it private; it signs every request)")}`);
    });

  merchant
    .command("list")
    .description("list merchants")
    .addHelpText("after", examples("xpay merchant list", "xpay merchant list --json"))
    .option("--json", "print JSON")
    .action(async (o: { json?: boolean }) => {
      const all = (await cli.open().store.listMerchants()).map(view);
      if (o.json) return printJson(all);
      printTable(all, ["pid", "name", "active", "notify_method", "v2_key"]);
    });

  merchant
    .command("show <pid>")
    .description("show one merchant (the AppSecret only with --show-secret, which is audited)")
    .addHelpText("after", examples("xpay merchant show 1001", "xpay merchant show 1001 --show-secret --json"))
    .option("--show-secret", "include the AppSecret (written to the audit log as merchant.reveal_secret; the value is not)")
    .option("--json", "print JSON")
    .action(async (pid: string, o: { json?: boolean; showSecret?: boolean }) => {
      const m = await mustGet(cli, pid);
      // The secret is shown through the console's own audited reveal (merchant.reveal_secret, as cli).
      const secret = o.showSecret ? await revealMerchantSecret(cli.open(), CLI_ACTOR, m.pid) : null;
      const out = { ...view(m), ...(secret !== null ? { secret } : {}), rsa_public_key: m.rsaPublicKey };
      if (o.json) return printJson(out);
      for (const [k, v] of Object.entries(out)) console.log(`${pc.dim(k.padEnd(14))} ${typeof v === "object" ? JSON.stringify(v) : String(v)}`);
    });

  const toggles = [
    ["disable", false, "disable a merchant: its new orders and its monitoring clients' reports are refused (its orders and notifications are kept)"],
    ["enable", true, "enable a merchant: its orders and reports are accepted again"],
  ] as const;
  for (const [name, active, description] of toggles) {
    merchant
      .command(`${name} <pid>`)
      .description(description)
      .addHelpText("after", examples(`xpay merchant ${name} 1001`))
      .action(async (pid: string) => {
        const m = await mustGet(cli, pid);
        await setMerchantActive(cli.open(), CLI_ACTOR, m.pid, active);
        console.log(`merchant ${m.pid} ${active ? "enabled" : "disabled"}`);
      });
  }

  merchant
    .command("set <pid>")
    .description("change a merchant's options")
    .addHelpText("after", examples(
      "xpay merchant set 1001 --notify-method GET",
      'xpay merchant set 1001 --name "My new shop" --setting service_qq=12345',
      "xpay merchant set 1001 --setting service_qq=   # removes the override",
      "xpay merchant set 1001 --setting vmq_notify_url=https://shop.example.com/pay/vpay/notify_url --setting vmq_url_hosts=shop.example.com",
    ))
    .option("--notify-method <method>", "native notifications by POST (default) or GET")
    .option("--name <name>", "rename")
    .option("--setting <key=value...>", `per-merchant cashier setting override (${MERCHANT_SETTING_KEYS.join(", ")}), or where its V免签 notifications and return links may go (${VMQ_URL_KEYS.join(", ")}: a createOrder's notifyUrl/returnUrl is used only when it is the configured one or on a listed host); empty value removes it`)
    .action(async (pid: string, o: { notifyMethod?: string; name?: string; setting?: string[] }) => {
      if (o.notifyMethod === undefined && o.name === undefined && o.setting === undefined) {
        throw new CliError("nothing to set: give --name, --notify-method or --setting key=value");
      }
      const settings: Record<string, string> = {};
      for (const kv of o.setting ?? []) {
        const i = kv.indexOf("=");
        if (i < 1) throw new CliError(`--setting expects key=value, got ${kv}`);
        settings[kv.slice(0, i)] = kv.slice(i + 1);
      }
      const m = await mustGet(cli, pid);
      const r = await updateMerchantOptions(cli.open(), CLI_ACTOR, m.pid, { name: o.name, notifyMethod: o.notifyMethod, settings });
      if (r.kind === "not_found") throw new CliError(`no merchant with pid ${m.pid}`);
      if (r.kind === "refused") throw problemError(r.problems);
      console.log(`merchant ${m.pid} updated`);
    });

  merchant
    .command("rotate-secret <pid>")
    .description("replace a merchant's AppSecret; the new one is shown once and the old one stops working at once")
    .addHelpText("after", examples("xpay merchant rotate-secret 1001", "xpay merchant rotate-secret 1001 --json"))
    .option("--secret <secret>", "the new AppSecret (default: 32 random hex characters)")
    .option("--json", "print JSON")
    .action(async (pid: string, o: { secret?: string; json?: boolean }) => {
      const m = await mustGet(cli, pid);
      const r = await rotateSecret(cli.open(), CLI_ACTOR, m.pid, o.secret);
      if (r.kind === "not_found") throw new CliError(`no merchant with pid ${m.pid}`);
      if (r.kind === "refused") throw problemError([r.problem]);
      const secret = r.secret;
      if (o.json) return printJson({ pid: m.pid, secret });
      console.log(`${pc.green("AppSecret replaced")}  pid ${pc.bold(String(m.pid))}  ${pc.dim("(the old one no longer signs anything; a running server sees this within a second)")}`);
      console.log(`AppSecret ${pc.bold(secret)}  ${pc.dim("(shown once; put it in the merchant's site and in its monitoring clients)")}`);
    });
}

/** The first problem of a refused change, as the CLI's one error line. */
const problemError = (problems: MerchantProblem[]) => new CliError(problems[0]?.text ?? "refused");

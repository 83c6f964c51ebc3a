import { randomBytes } from "node:crypto";
import type { Command } from "commander";
import pc from "picocolors";
import { MERCHANT_SETTING_KEYS, merchantSettingProblem } from "../core/merchant-settings.ts";
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
      const secret = o.secret ?? randomBytes(16).toString("hex");
      if (secret.length < 16) throw new CliError("--secret must be at least 16 characters");
      const gw = cli.open();
      if (pid !== undefined && (await gw.store.getMerchant(pid))) throw new CliError(`a merchant with pid ${pid} exists already`);
      const m = await gw.store.addMerchant({ pid, name: o.name, secret, now: gw.clock.now() });
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
    .description("show one merchant (the AppSecret only with --show-secret)")
    .addHelpText("after", examples("xpay merchant show 1001", "xpay merchant show 1001 --show-secret --json"))
    .option("--show-secret", "include the AppSecret")
    .option("--json", "print JSON")
    .action(async (pid: string, o: { json?: boolean; showSecret?: boolean }) => {
      const m = await mustGet(cli, pid);
      const out = { ...view(m), ...(o.showSecret ? { secret: m.secret } : {}), rsa_public_key: m.rsaPublicKey };
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
        await cli.open().store.updateMerchant(m.pid, { active });
        console.log(`merchant ${m.pid} ${active ? "enabled" : "disabled"}`);
      });
  }

  merchant
    .command("set <pid>")
    .description("change a merchant's options")
    .addHelpText("after", examples("xpay merchant set 1001 --notify-method GET", 'xpay merchant set 1001 --name "My new shop" --setting service_qq=12345', "xpay merchant set 1001 --setting service_qq=   # removes the override"))
    .option("--notify-method <method>", "native notifications by POST (default) or GET")
    .option("--name <name>", "rename")
    .option("--setting <key=value...>", `per-merchant cashier setting override (${MERCHANT_SETTING_KEYS.join(", ")}); empty value removes it`)
    .action(async (pid: string, o: { notifyMethod?: string; name?: string; setting?: string[] }) => {
      if (o.notifyMethod === undefined && o.name === undefined && o.setting === undefined) {
        throw new CliError("nothing to set: give --name, --notify-method or --setting key=value");
      }
      const method = o.notifyMethod?.toUpperCase();
      if (method !== undefined && method !== "GET" && method !== "POST") throw new CliError("--notify-method must be GET or POST");
      if (o.name !== undefined && o.name.trim() === "") throw new CliError("--name must not be empty");
      const m = await mustGet(cli, pid);
      const settings = { ...m.settings };
      for (const kv of o.setting ?? []) {
        const [k, v, problem] = settingPair(kv);
        if (problem) throw new CliError(problem);
        if (v === "") delete settings[k];
        else settings[k] = v;
      }
      await cli.open().store.updateMerchant(m.pid, { notifyMethod: method as "GET" | "POST" | undefined, name: o.name?.trim(), settings });
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
      const secret = o.secret ?? randomBytes(16).toString("hex");
      if (secret.length < 16) throw new CliError("--secret must be at least 16 characters");
      if (secret === m.secret) throw new CliError("--secret is the current AppSecret; give a new one");
      await cli.open().store.updateMerchant(m.pid, { secret });
      if (o.json) return printJson({ pid: m.pid, secret });
      console.log(`${pc.green("AppSecret replaced")}  pid ${pc.bold(String(m.pid))}  ${pc.dim("(the old one no longer signs anything; a running server sees this within a second)")}`);
      console.log(`AppSecret ${pc.bold(secret)}  ${pc.dim("(shown once; put it in the merchant's site and in its monitoring clients)")}`);
    });
}

/** key=value of a known per-merchant setting, its value checked like `settings set`. */
function settingPair(kv: string): [string, string, string | null] {
  const i = kv.indexOf("=");
  if (i < 1) return ["", "", `--setting expects key=value, got ${kv}`];
  const [k, v] = [kv.slice(0, i), kv.slice(i + 1)];
  return [k, v, merchantSettingProblem(k, v)];
}

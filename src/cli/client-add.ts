// `xpay client add-smsforwarder` and `xpay client add-report`: phones with a secret of their own.
// SmsForwarder posts to its own URL (/api/report/smsforwarder/{id}) signed the app's way; a
// report client signs the spec's report API with its secret instead of the merchant's AppSecret.
// --pid 0 makes it the operator's client: it may pay any merchant's orders on the accounts it
// watches (the shared accounts, typically), which a merchant's AppSecret never may.
import type { Command } from "commander";
import { CLI_ACTOR } from "../core/admin/audit.ts";
import { addClient } from "../core/clients/keyed.ts";
import { webhookPlace } from "../core/clients/setup.ts";
import type { KeyedKind } from "../core/store.ts";
import { ACCOUNT_HELP, baseFor, collectAccounts, printSetup } from "./client-setup.ts";
import { type Cli, CliError, requireInt } from "./context.ts";
import { examples } from "./help.ts";

interface AddOptions {
  name: string;
  pid: string;
  account?: number[];
  baseUrl?: string;
  json?: boolean;
}

function addCommand(client: Command, cli: Cli, kind: Exclude<KeyedKind, "vmq">, what: string, lines: string[]): void {
  client
    .command(`add-${kind}`)
    .description(what)
    .addHelpText("after", examples(...lines))
    .requiredOption("--name <name>", "a name for the phone (shown by client list)")
    .requiredOption("--pid <pid>", "the merchant whose orders its reports pay; 0: the operator's own phone (any merchant's orders)")
    .option("--account <id>", ACCOUNT_HELP, collectAccounts)
    .option("--base-url <url>", "public base URL the phone reaches (default: XPAY_BASE_URL, else the one serve recorded)")
    .option("--json", "print JSON")
    .action(async (o: AddOptions) => {
      const pid = requireInt("--pid", o.pid);
      const gw = cli.open();
      await baseFor(gw, o.baseUrl, webhookPlace); // a bad --base-url is refused before anything is written
      const r = await addClient(gw, CLI_ACTOR, { kind, pid, name: o.name, accountIds: o.account ?? [] });
      if (!r.ok) throw new CliError(r.reason);
      await printSetup(gw, r.client, o.baseUrl, o.json, kind === "smsforwarder" ? "SmsForwarder client added" : "report client added");
    });
}

export function register(program: Command, cli: Cli): void {
  const client = program.commands.find((c) => c.name() === "client");
  if (!client) throw new Error("register the client command group before client-add");
  addCommand(client, cli, "smsforwarder", "add a phone running SmsForwarder: prints its Webhook URL and a secret of its own", [
    "xpay client add-smsforwarder --name phone1 --pid 1001 --base-url https://pay.example.com",
    "xpay client add-smsforwarder --name shop-phone --pid 0 --account 3 --json",
  ]);
  addCommand(client, cli, "report", "add a report-API client with a secret of its own (instead of the merchant's AppSecret)", [
    "xpay client add-report --name watcher1 --pid 1001 --account 5",
    "xpay client add-report --name operator-phone --pid 0 --json",
  ]);
}

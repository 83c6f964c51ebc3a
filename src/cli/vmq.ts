// `xpay client add-vmq` and `xpay client show-vmq`: V免签 clients. Each has its own communication
// key for one merchant; the monitor app is configured by scanning HOST/KEY (it splits the text on
// "/" and always calls http://HOST/...), and a shop's V免签 driver is given the base URL and the
// same key. The command prints both, the app's text also as a terminal QR code.
import type { Command } from "commander";
import { CLI_ACTOR } from "../core/admin/audit.ts";
import { addClient, clientByName, revealClientKey } from "../core/clients/keyed.ts";
import { vmqPlace } from "../core/clients/setup.ts";
import { ACCOUNT_HELP, baseFor, collectAccounts, printSetup } from "./client-setup.ts";
import { type Cli, CliError, requireInt } from "./context.ts";
import { examples } from "./help.ts";

const KEY = /^[\x21-\x2e\x30-\x7e]{8,128}$/; // printable ASCII without "/" (the app splits on it) or spaces

export function register(program: Command, cli: Cli): void {
  const client = program.commands.find((c) => c.name() === "client");
  if (!client) throw new Error("register the client command group before vmq");
  client
    .command("add-vmq")
    .description("add a V免签 client (monitor app + shop driver key) for a merchant; prints the app's HOST/KEY text and QR code")
    .addHelpText(
      "after",
      examples(
        "xpay client add-vmq --name phone1 --pid 1001 --base-url http://pay.example.com",
        "xpay client add-vmq --name old-server --pid 1001 --key 0123456789abcdef0123456789abcdef --json",
        "xpay client add-vmq --name phone2 --pid 1001 --account 3 --account 4",
      ),
    )
    .requiredOption("--name <name>", "a name for the phone (shown by client list)")
    .requiredOption("--pid <pid>", "merchant whose accounts and orders the client serves")
    .option("--account <id>", `${ACCOUNT_HELP} (WeChat and Alipay accounts only)`, collectAccounts)
    .option("--key <key>", "communication key (default: 32 random hex characters); give the old V免签 key to keep the app and shops unchanged")
    .option("--base-url <url>", "public base URL for the app's HOST (default: XPAY_BASE_URL, else the one serve recorded)")
    .option("--json", "print JSON")
    .action(async (o: { name: string; pid: string; account?: number[]; key?: string; baseUrl?: string; json?: boolean }) => {
      const pid = requireInt("--pid", o.pid, { min: 1 });
      if (o.key !== undefined && !KEY.test(o.key)) throw new CliError('--key must be 8-128 printable ASCII characters without "/" or spaces (the app splits HOST/KEY on "/")');
      const gw = cli.open();
      await baseFor(gw, o.baseUrl, vmqPlace); // a bad --base-url is refused before anything is written
      const r = await addClient(gw, CLI_ACTOR, { kind: "vmq", pid, name: o.name, key: o.key, accountIds: o.account ?? [] });
      if (!r.ok) throw new CliError(r.reason);
      await printSetup(gw, r.client, o.baseUrl, o.json, "V免签 client added");
    });

  client
    .command("show-vmq <name>")
    .description("print a V免签 client's HOST/KEY text and QR code again (it shows the key; same as client show)")
    .addHelpText("after", examples("xpay client show-vmq phone1", "xpay client show-vmq phone1 --base-url http://pay.example.com --json"))
    .option("--base-url <url>", "public base URL for the app's HOST (default: XPAY_BASE_URL, else the one serve recorded)")
    .option("--json", "print JSON")
    .action(async (name: string, o: { baseUrl?: string; json?: boolean }) => {
      const gw = cli.open();
      const found = await clientByName(gw, name);
      if (!found || found.kind !== "vmq") throw new CliError(`no V免签 client named ${name} (xpay client list shows them, kind vmq)`);
      await baseFor(gw, o.baseUrl, vmqPlace); // a bad --base-url shows nothing and logs nothing
      // The key is shown: audited like the console's reveal (core/clients/keyed.ts).
      await printSetup(gw, (await revealClientKey(gw, CLI_ACTOR, found.id)) ?? found, o.baseUrl, o.json, "V免签 client");
    });
}

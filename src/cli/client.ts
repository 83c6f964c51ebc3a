// `xpay client ...`: the phones and third-party-account watchers that report, whether each is
// online (seen within heartbeat_timeout) and which accounts it watches; and the operator's actions
// on keyed clients (phones with a secret of their own): show the setup again, bind to accounts,
// remove. The add commands are in client-add.ts and vmq.ts.
import type { Command } from "commander";
import pc from "picocolors";
import { CLI_ACTOR } from "../core/admin/audit.ts";
import { bindClient, clientByName, removeClient, revealClientKey } from "../core/clients/keyed.ts";
import { clientsOverview } from "../core/clients/overview.ts";
import type { Gateway } from "../core/gateway.ts";
import type { KeyedClient } from "../core/store.ts";
import { baseFor, collectAccounts, placeOf, printSetup } from "./client-setup.ts";
import { type Cli, CliError, printJson, printTable } from "./context.ts";
import { examples } from "./help.ts";
import { showTime } from "./time.ts";

async function named(gw: Gateway, name: string): Promise<KeyedClient> {
  const c = await clientByName(gw, name);
  if (!c) throw new CliError(`no client named ${name} with a secret of its own (xpay client list shows them: kinds vmq, smsforwarder, report)`);
  return c;
}

export function register(program: Command, cli: Cli): void {
  const client = program
    .command("client")
    .description("monitoring clients that report payments")
    .addHelpText("after", examples("xpay client list", "xpay client add-smsforwarder --name phone1 --pid 1001", "xpay client bind phone1 --account 3"));
  client
    .command("list")
    .description("list clients, most recently seen first, with the accounts each watches")
    .addHelpText("after", examples("xpay client list", "xpay client list --json"))
    .option("--json", "print JSON")
    .action(async (o: { json?: boolean }) => {
      const gw = cli.open();
      const rows = (await clientsOverview(gw)).rows.map(({ client: c, online, accounts, everyAccount, keyed }) => ({
        id: c.id, kind: c.kind, pid: c.pid, name: c.name, channel_id: c.channelId ?? "", ext_data: c.extData,
        // A keyed client is listed from the moment it is added, before its first report.
        last_seen: c.lastSeenAt > 0 ? showTime(c.lastSeenAt) : "never", online,
        accounts: accounts.map((a) => a.id), bound: keyed ? keyed.accountIds.length > 0 : !everyAccount,
      }));
      if (o.json) return printJson(rows);
      printTable(
        rows.map((r) => ({ ...r, online: r.online ? pc.green("online") : pc.dim("offline"), watches: `${r.accounts.join(",") || "none"}${r.bound ? "" : " (unbound)"}` })),
        ["id", "kind", "pid", "name", "watches", "last_seen", "online"],
      );
    });

  client
    .command("show <name>")
    .description("print a keyed client's setup again: its URL and secret (audited)")
    .addHelpText("after", examples("xpay client show phone1", "xpay client show phone1 --base-url https://pay.example.com --json"))
    .option("--base-url <url>", "public base URL the phone reaches (default: XPAY_BASE_URL, else the one serve recorded)")
    .option("--json", "print JSON")
    .action(async (name: string, o: { baseUrl?: string; json?: boolean }) => {
      const gw = cli.open();
      const c = await named(gw, name);
      await baseFor(gw, o.baseUrl, placeOf(c)); // a bad --base-url shows nothing and logs nothing
      await printSetup(gw, (await revealClientKey(gw, CLI_ACTOR, c.id)) ?? c, o.baseUrl, o.json, `${c.kind} client`);
    });

  client
    .command("bind <name>")
    .description("set the accounts a keyed client's phone watches (its reports pay only there); --unbind: every account in its scope that no client is bound to")
    .addHelpText("after", examples("xpay client bind phone1 --account 3 --account 4", "xpay client bind phone1 --unbind"))
    .option("--account <id>", "an account the phone watches (repeat, or 3,4)", collectAccounts)
    .option("--unbind", "watch every account in its scope that no client is bound to")
    .option("--json", "print JSON")
    .action(async (name: string, o: { account?: number[]; unbind?: boolean; json?: boolean }) => {
      if (!o.unbind === !o.account) throw new CliError("give --account (one or more) or --unbind");
      const gw = cli.open();
      const r = await bindClient(gw, CLI_ACTOR, (await named(gw, name)).id, o.account ?? []);
      if (!r.ok) throw new CliError(r.reason);
      if (o.json) return printJson({ id: r.client.id, name: r.client.name, accounts: r.client.accountIds });
      console.log(`${pc.green("bound")} ${r.client.name}: ${r.client.accountIds.length ? `accounts ${r.client.accountIds.join(",")}` : "unbound (every account in its scope no client is bound to)"}`);
    });

  client
    .command("remove <name>")
    .description("remove a keyed client: its secret stops working at once (a V免签 client's shop orders can no longer be signed)")
    .addHelpText("after", examples("xpay client remove phone1"))
    .action(async (name: string) => {
      const gw = cli.open();
      const r = await removeClient(gw, CLI_ACTOR, (await named(gw, name)).id);
      if (!r.ok) throw new CliError(r.reason);
      console.log(`${pc.green("removed")} ${r.client.kind} client ${r.client.name}`);
    });
}

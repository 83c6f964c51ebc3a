// `xpay client add-vmq` and `xpay client show-vmq`: V免签 clients. Each has its own communication
// key for one merchant; the monitor app is configured by scanning HOST/KEY (it splits the text on
// "/" and always calls http://HOST/...), and a shop's V免签 driver is given the base URL and the
// same key. The command prints both, the app's text also as a terminal QR code.
import { randomBytes } from "node:crypto";
import type { Command } from "commander";
import pc from "picocolors";
import { CLI_ACTOR } from "../core/admin/audit.ts";
import { noteText, revealVmqKey, vmqConfigText, vmqPlace } from "../core/clients/setup.ts";
import type { Gateway } from "../core/gateway.ts";
import type { VmqClient } from "../core/store.ts";
import { type Cli, CliError, printJson, requireInt } from "./context.ts";
import { examples } from "./help.ts";
import { terminalQr } from "./order-qr.ts";

const KEY = /^[\x21-\x2e\x30-\x7e]{8,128}$/; // printable ASCII without "/" (the app splits on it) or spaces
const NAME = /^[^\x00-\x1f\x7f]{1,64}$/;

interface Where {
  host: string;
  base: string;
  notes: string[];
}

/** HOST for the app's QR text: --base-url, else XPAY_BASE_URL, else the base URL serve recorded. */
async function whereFrom(gw: Gateway, flag: string | undefined): Promise<Where> {
  const given = flag ?? process.env.XPAY_BASE_URL ?? ((await gw.settings()).str("base_url") || gw.baseUrl);
  const place = vmqPlace(given);
  if (!place.ok && place.problem === "not_url") throw new CliError(`--base-url must be an http:// or https:// URL such as http://pay.example.com, not ${JSON.stringify(given)}`);
  if (!place.ok) throw new CliError("--base-url must start with http:// or https://");
  return { host: place.host, base: place.base, notes: place.notes.map(noteText) };
}

async function show(gw: Gateway, c: VmqClient, flag: string | undefined, json: boolean | undefined, headline: string): Promise<void> {
  const where = await whereFrom(gw, flag);
  const config = vmqConfigText(where.host, c.key);
  const accounts = c.accountIds.length ? c.accountIds.join(",") : "every WeChat and Alipay account of the merchant";
  if (json) return printJson({ id: c.id, name: c.name, pid: c.pid, accounts: c.accountIds, key: c.key, config, shop_base_url: where.base });
  console.log(`${pc.green(headline)}  name ${pc.bold(c.name)}  pid ${c.pid}  accounts ${accounts}`);
  console.log(`key ${pc.bold(c.key)}  ${pc.dim("(keep it private: it signs the app's reports and the shop's orders)")}`);
  console.log(`\nmonitor app: scan with V免签's 扫码配置, or type it in as 手动配置`);
  console.log(terminalQr(config));
  console.log(config);
  console.log(`\nshop (dujiaoka Vpay and other V免签 drivers): base URL ${where.base}  key: the same`);
  for (const n of where.notes) console.log(pc.yellow(`note: ${n}`));
}

/** --account 3,4: accounts the merchant can use, WeChat or Alipay, at most one per pay type. */
async function boundAccounts(gw: Gateway, pid: number, list: string | undefined): Promise<number[]> {
  if (list === undefined) return [];
  const ids = list.split(",").map((x) => x.trim());
  if (ids.some((x) => !/^\d{1,10}$/.test(x))) throw new CliError("--account takes account ids separated by commas, e.g. --account 3,4");
  const seen = new Map<string, number>();
  for (const id of ids.map(Number)) {
    const a = await gw.store.getChannel(id);
    if (!a) throw new CliError(`no account with id ${id} (xpay channel list shows them)`);
    if (a.pid !== 0 && a.pid !== pid) throw new CliError(`account ${id} belongs to merchant ${a.pid}, not ${pid}`);
    if (a.payType !== "wxpay" && a.payType !== "alipay") throw new CliError(`account ${id} is ${a.payType}; the V免签 app reports WeChat (wxpay) and Alipay (alipay) only`);
    const other = seen.get(a.payType);
    if (other !== undefined && other !== id) throw new CliError(`accounts ${other} and ${id} are both ${a.payType}: a push names only the pay type, so one phone watches one account of each`);
    seen.set(a.payType, id);
  }
  return [...seen.values()];
}

async function byName(gw: Gateway, name: string): Promise<VmqClient> {
  const c = (await gw.store.listVmqClients()).find((x) => x.name === name);
  if (!c) throw new CliError(`no V免签 client named ${name} (xpay client list shows them, kind vmq)`);
  return c;
}

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
        "xpay client add-vmq --name phone2 --pid 1001 --account 3,4",
      ),
    )
    .requiredOption("--name <name>", "a name for the phone (shown by client list)")
    .requiredOption("--pid <pid>", "merchant whose accounts and orders the client serves")
    .option("--account <ids>", "the accounts this phone watches, one WeChat and/or one Alipay, e.g. 3,4 (default: every account of the merchant)")
    .option("--key <key>", "communication key (default: 32 random hex characters); give the old V免签 key to keep the app and shops unchanged")
    .option("--base-url <url>", "public base URL for the app's HOST (default: XPAY_BASE_URL, else the one serve recorded)")
    .option("--json", "print JSON")
    .action(async (o: { name: string; pid: string; account?: string; key?: string; baseUrl?: string; json?: boolean }) => {
      const pid = requireInt("--pid", o.pid, { min: 1 });
      if (!NAME.test(o.name)) throw new CliError("--name must be 1-64 characters without control characters");
      const key = o.key ?? randomBytes(16).toString("hex");
      if (!KEY.test(key)) throw new CliError('--key must be 8-128 printable ASCII characters without "/" or spaces (the app splits HOST/KEY on "/")');
      const gw = cli.open();
      await whereFrom(gw, o.baseUrl); // a bad --base-url is refused before anything is written
      const accountIds = await boundAccounts(gw, pid, o.account);
      const r = await gw.store.addVmqClient({ pid, name: o.name, key, accountIds, now: gw.clock.now() });
      if (r.kind === "refused") throw new CliError(r.reason);
      await show(gw, r.client, o.baseUrl, o.json, "V免签 client added");
    });

  client
    .command("show-vmq <name>")
    .description("print a V免签 client's HOST/KEY text and QR code again (it shows the key)")
    .addHelpText("after", examples("xpay client show-vmq phone1", "xpay client show-vmq phone1 --base-url http://pay.example.com --json"))
    .option("--base-url <url>", "public base URL for the app's HOST (default: XPAY_BASE_URL, else the one serve recorded)")
    .option("--json", "print JSON")
    .action(async (name: string, o: { baseUrl?: string; json?: boolean }) => {
      const gw = cli.open();
      const found = await byName(gw, name);
      await whereFrom(gw, o.baseUrl); // a bad --base-url shows nothing and logs nothing
      // The key is shown: audited like the console's reveal (core/clients/setup.ts).
      await show(gw, (await revealVmqKey(gw, CLI_ACTOR, found.id)) ?? found, o.baseUrl, o.json, "V免签 client");
    });
}

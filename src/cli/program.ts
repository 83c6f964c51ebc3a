// The xpay command line: one program, one file per command group, all on the same core. Its entry
// is main.ts, which loads this module once serve has its allocator setting (allocator.ts).
import { Command, CommanderError } from "commander";
import pc from "picocolors";
import * as alert from "./alert.ts";
import * as admin from "./admin.ts";
import * as audit from "./audit.ts";
import * as channel from "./channel.ts";
import * as channelSlots from "./channel-slots.ts";
import * as client from "./client.ts";
import * as clientAdd from "./client-add.ts";
import { CliError, createCli } from "./context.ts";
import * as dbCopy from "./db-copy.ts";
import * as dev from "./dev.ts";
import { examples, requireAllAtOnce } from "./help.ts";
import * as keygen from "./keygen.ts";
import * as merchant from "./merchant.ts";
import * as notify from "./notify.ts";
import * as ops from "./ops.ts";
import * as order from "./order.ts";
import * as report from "./report.ts";
import * as restore from "./restore.ts";
import * as rules from "./rules.ts";
import * as serve from "./serve.ts";
import * as settings from "./settings.ts";
import * as simulatePay from "./simulate-pay.ts";
import * as stats from "./stats.ts";
import * as systemd from "./systemd.ts";
import * as vmq from "./vmq.ts";
import { versionLine } from "./version.ts";

export function buildProgram(): { program: Command; close(): void } {
  const program = new Command("xpay")
    .description("self-hosted payment gateway: native, epay V1/V2, hash and report protocols in one executable")
    .version(versionLine(), "-v, --version")
    .option("--db <path>", "SQLite database file, or a postgres:// URL (XPAY_DB; default ./xpay.db)")
    .showHelpAfterError(false)
    .exitOverride()
    .addHelpText("after", examples("xpay serve", 'xpay merchant add --name "My shop"', "xpay --db /var/lib/xpay/xpay.db order list --status paid"));
  const cli = createCli(program);
  for (const group of [serve, dev, merchant, channel, keygen, order, settings, ops]) group.register(program, cli);
  for (const group of [simulatePay, notify, report, client, clientAdd, vmq]) group.register(program, cli);
  for (const group of [stats, rules]) group.register(program, cli);
  for (const group of [admin, audit]) group.register(program, cli);
  for (const group of [alert]) group.register(program, cli);
  for (const group of [channelSlots]) group.register(program, cli);
  for (const group of [dbCopy, restore]) group.register(program, cli);
  systemd.register(program);
  requireAllAtOnce(program);
  return { program, close: () => cli.close() };
}

function fail(message: string): never {
  console.error(`${pc.red("error:")} ${message}`);
  process.exit(1);
}

export async function main(argv: string[]): Promise<void> {
  const { program, close } = buildProgram();
  for (const c of [program, ...program.commands, ...program.commands.flatMap((c) => c.commands)]) c.exitOverride();
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      // Commander already printed its one-line message (or the help / version text).
      process.exit(e.exitCode);
    }
    close();
    if (e instanceof CliError) fail(e.message);
    fail(e instanceof Error ? e.message : String(e));
  }
  const cmd = program.args[0];
  if (cmd !== "serve") close();
}


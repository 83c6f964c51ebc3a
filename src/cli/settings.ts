import type { Command } from "commander";
import pc from "picocolors";
import { CLI_ACTOR } from "../core/admin/audit.ts";
import { SETTINGS, settingDef, Settings, shownSetting } from "../core/settings.ts";
import { changeSettings } from "../core/settings-change.ts";
import { type Cli, CliError, printJson } from "./context.ts";
import { examples } from "./help.ts";

const help = "\nSettings:\n" + SETTINGS.map((d) => `  ${d.key.padEnd(22)} ${d.help}${d.default ? ` (default: ${shownSetting(d, d.default)})` : ""}`).join("\n");

/** --json: a money setting as integer cents under `<key>_cents`; the others as stored. */
function jsonEntry(key: string, value: string): [string, string | number] {
  return settingDef(key)?.money && /^\d+$/.test(value) ? [`${key}_cents`, Number(value)] : [key, value];
}

export function register(program: Command, cli: Cli): void {
  const settings = program
    .command("settings")
    .description("operator settings")
    .addHelpText("after", help)
    .addHelpText("after", examples("xpay settings list", "xpay settings set order_ttl 600", "xpay settings set max_offset 0.50   # amounts in yuan"));

  settings
    .command("list")
    .description("every setting with its value (secrets masked)")
    .addHelpText("after", examples("xpay settings list", "xpay settings list --json"))
    .option("--json", "print JSON")
    .action(async (o: { json?: boolean }) => {
      const s = new Settings(await cli.open().store.getSettings());
      const rows = SETTINGS.map((d) => ({ key: d.key, value: d.secret && s.str(d.key) ? "********" : s.str(d.key) }));
      if (o.json) return printJson(Object.fromEntries(rows.map((r) => jsonEntry(r.key, r.value))));
      for (const r of rows) console.log(`${pc.dim(r.key.padEnd(22))} ${shownSetting(settingDef(r.key)!, r.value)}`);
    });

  settings
    .command("get <key>")
    .description("print one setting's value (an amount with its unit: ¥0.10)")
    .addHelpText("after", examples("xpay settings get order_ttl"))
    .action(async (key: string) => {
      const def = settingDef(key);
      if (!def) throw new CliError(`unknown setting ${key}; see xpay settings --help`);
      console.log(shownSetting(def, new Settings(await cli.open().store.getSettings()).str(key)));
    });

  settings
    .command("set <key> <value>")
    .description("change a setting (a running server sees it within a second); amounts in yuan; xpay settings --help lists them")
    .addHelpText("after", examples("xpay settings set order_ttl 600   # orders expire after 10 minutes", "xpay settings set require_online_client 1", "xpay settings set max_offset 0.50   # ¥0.50"))
    .action(async (key: string, value: string) => {
      const r = await changeSettings(cli.open(), CLI_ACTOR, { [key]: value });
      const problem = r.kind === "refused" ? r.problems[key] : undefined;
      if (problem?.kind === "unknown") throw new CliError(`unknown setting ${key}; see xpay settings --help`);
      if (problem?.kind === "invalid") throw new CliError(`${key}${settingDef(key)?.money ? ":" : ""} ${problem.message}`);
      // An amount says what it became: `max_offset 10` from the cents habit reads ¥10.00 here.
      const def = settingDef(key);
      console.log(def?.money ? `${key} set to ${shownSetting(def, new Settings(await cli.open().store.getSettings()).str(key))}` : `${key} set`);
    });
}

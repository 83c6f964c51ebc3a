import type { Command } from "commander";
import pc from "picocolors";
import { SETTINGS, settingDef, Settings } from "../core/settings.ts";
import { type Cli, CliError, printJson } from "./context.ts";

const help = "\nSettings:\n" + SETTINGS.map((d) => `  ${d.key.padEnd(22)} ${d.help}${d.default ? ` (default: ${d.default})` : ""}`).join("\n");

export function register(program: Command, cli: Cli): void {
  const settings = program.command("settings").description("operator settings").addHelpText("after", help);

  settings
    .command("list")
    .description("every setting with its value (secrets masked)")
    .option("--json", "print JSON")
    .action(async (o: { json?: boolean }) => {
      const s = new Settings(await cli.open().store.getSettings());
      const rows = SETTINGS.map((d) => ({ key: d.key, value: d.secret && s.str(d.key) ? "********" : s.str(d.key) }));
      if (o.json) return printJson(Object.fromEntries(rows.map((r) => [r.key, r.value])));
      for (const r of rows) console.log(`${pc.dim(r.key.padEnd(22))} ${r.value}`);
    });

  settings
    .command("get <key>")
    .description("print one setting's value")
    .action(async (key: string) => {
      if (!settingDef(key)) throw new CliError(`unknown setting ${key}; see xpay settings --help`);
      console.log(new Settings(await cli.open().store.getSettings()).str(key));
    });

  settings
    .command("set <key> <value>")
    .description("change a setting (a running server sees it within a second)")
    .action(async (key: string, value: string) => {
      const def = settingDef(key);
      if (!def) throw new CliError(`unknown setting ${key}; see xpay settings --help`);
      const problem = def.check?.(value);
      if (problem) throw new CliError(`${key} ${problem}`);
      await cli.open().store.setSetting(key, value);
      console.log(`${key} set`);
    });
}

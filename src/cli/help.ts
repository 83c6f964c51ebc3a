// Help that teaches by example. Every command's --help ends with examples that paste, required
// options say "(required)", and a command run without several of them names them all in one line:
// commander stops at the first missing one, so an operator would fix the call once per option.
import type { Command, Option } from "commander";
import { CliError } from "./errors.ts";

/** The text for `.addHelpText("after", examples(...))`: one pasteable command per line. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  ${l}`).join("\n")}`;
}

/** The program and every command under it, depth first. */
export function allCommands(program: Command): Command[] {
  return [program, ...program.commands.flatMap((c) => allCommands(c))];
}

/** Options that `.requiredOption` declared; commander no longer enforces them, the hook does. */
const required = new WeakSet<Option>();

/**
 * Takes over commander's required-option check for every command of the program: marks each
 * required option "(required)" in help (first, where a wrapped line cannot hide it), and before an action runs reports every missing one.
 * Call once, after every command is registered.
 */
export function requireAllAtOnce(program: Command): void {
  for (const cmd of allCommands(program)) {
    for (const opt of cmd.options) {
      if (!opt.mandatory) continue;
      opt.mandatory = false;
      required.add(opt);
      if (!opt.description.includes("(required)")) opt.description = `(required) ${opt.description}`;
    }
  }
  program.hook("preAction", (_root, action) => {
    const missing = action.options.filter((o) => required.has(o) && action.getOptionValue(o.attributeName()) === undefined);
    if (missing.length === 0) return;
    const names = missing.map((o) => o.long ?? o.flags).join(", ");
    throw new CliError(`missing required option${missing.length > 1 ? "s" : ""}: ${names} (see ${commandPath(action)} --help)`);
  });
}

/** "xpay channel add" for the channel add command. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

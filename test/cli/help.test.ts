// Issue 15, help: every command's --help ends with examples that name real commands and options,
// required options say "(required)", a call missing several names them all in one line, and the
// enable commands say what enabling does. Help is read in-process from the program main.ts builds.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Command, Option } from "commander";
import { buildProgram } from "../../src/cli/program.ts";
import { tempDir } from "../helpers.ts";

const dir = tempDir("xpay-help-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const all = (c: Command): Command[] => [c, ...c.commands.flatMap(all)];
const pathOf = (c: Command): string => (c.parent ? `${pathOf(c.parent)} ${c.name()}` : c.name());

/** The full --help text, the "after" text (examples) included. */
function helpOf(cmd: Command): string {
  let out = "";
  cmd.configureOutput({ writeOut: (s) => void (out += s), writeErr: (s) => void (out += s) });
  cmd.outputHelp();
  return out;
}

/** Shell words of one example line: quotes removed, a trailing # comment and VAR=value prefixes dropped. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(#.*$)|(\S+)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) {
    if (m[3] !== undefined) break;
    words.push(m[1] ?? m[2] ?? m[4]!);
  }
  while (words.length && /^[A-Z_]+=/.test(words[0]!)) words.shift();
  return words;
}

/**
 * Reads an example the way commander will: the command path, then options (each a real option of
 * that command or --db) with their values, then the positional arguments, whose count must fit.
 * Returns the problem, or null.
 */
function exampleProblem(program: Command, words: string[]): string | null {
  if (words[0] !== "xpay") return "does not start with xpay";
  let cmd = program;
  let i = 1;
  const globals = program.options;
  for (; i < words.length; i++) {
    const w = words[i]!;
    if (w === "--db") {
      i++;
      continue;
    }
    const sub = cmd.commands.find((c) => c.name() === w);
    if (!sub) break;
    cmd = sub;
  }
  if (cmd === program) return "names no command";
  const positional: string[] = [];
  for (; i < words.length; i++) {
    const w = words[i]!;
    if (!w.startsWith("-")) {
      positional.push(w);
      continue;
    }
    const name = w.split("=")[0]!;
    const opt: Option | undefined = [...cmd.options, ...globals].find((o) => o.long === name || o.short === name);
    if (!opt) return `${pathOf(cmd)} has no option ${name}`;
    if (w.includes("=") || (!opt.required && !opt.optional)) continue;
    if (opt.required) i++;
    else if (words[i + 1] !== undefined && !words[i + 1]!.startsWith("-")) i++;
    if (opt.variadic) while (words[i + 1] !== undefined && !words[i + 1]!.startsWith("-")) i++;
  }
  const args = cmd.registeredArguments;
  const min = args.filter((a) => a.required).length;
  const max = args.some((a) => a.variadic) ? Infinity : args.length;
  if (positional.length < min || positional.length > max) return `${pathOf(cmd)} takes ${min}..${max} arguments, the example gives ${positional.length}`;
  if (cmd.commands.length > 0 && !cmd.registeredArguments.length) return `${pathOf(cmd)} is a group, not a command`;
  return null;
}

function examplesIn(help: string): string[] {
  const at = help.indexOf("\nExamples:\n");
  if (at < 0) return [];
  const lines: string[] = [];
  for (const line of help.slice(at + "\nExamples:\n".length).split("\n")) {
    if (!line.startsWith("  ")) break;
    lines.push(line.trim());
  }
  return lines;
}

describe("--help of every command", () => {
  const { program, close } = buildProgram();
  afterAll(close);
  const commands = all(program);

  test("the program has the commands the README describes (sanity)", () => {
    expect(commands.length).toBeGreaterThan(30);
  });

  test("every command (groups and the program too) shows at least one example", () => {
    const without = commands.filter((c) => examplesIn(helpOf(c)).length === 0).map(pathOf);
    expect(without).toEqual([]);
  });

  test("every example names a real command, real options and the right number of arguments", () => {
    const problems: string[] = [];
    for (const c of commands) {
      for (const line of examplesIn(helpOf(c))) {
        const words = shellWords(line);
        const problem = exampleProblem(program, words);
        if (problem) problems.push(`${pathOf(c)}: "${line}": ${problem}`);
        // A command's examples run that command (a group's, one of its commands).
        else if (c !== program && !` ${words.join(" ")} `.includes(` ${pathOf(c).split(" ").slice(1).join(" ")} `)) problems.push(`${pathOf(c)}: "${line}" runs another command`);
      }
    }
    expect(problems).toEqual([]);
  });

  test("required options say (required) in help; the known ones are required", () => {
    const required = (c: Command) => c.options.filter((o) => o.mandatory || o.description.includes("(required)")).map((o) => o.long);
    expect(required(commands.find((c) => pathOf(c) === "xpay channel add")!)).toEqual(["--pid", "--pay-type", "--code", "--name", "--qrcode"]);
    expect(required(commands.find((c) => pathOf(c) === "xpay merchant add")!)).toEqual(["--name"]);
    expect(required(commands.find((c) => pathOf(c) === "xpay keygen")!)).toEqual(["--pid"]);
    const unmarked: string[] = [];
    for (const c of commands) {
      const help = helpOf(c);
      for (const o of c.options.filter((x) => x.mandatory || x.description.includes("(required)"))) {
        // The option's entry: its line and the wrapped lines under it, up to the next option.
        const lines = help.split("\n");
        const at = lines.findIndex((l) => l.trimStart().startsWith(o.flags));
        const end = lines.findIndex((l, i) => i > at && /^\s*(-|$)/.test(l));
        const entry = at < 0 ? "" : lines.slice(at, end).join(" ").replace(/\s+/g, " ");
        if (!entry.includes("(required)")) unmarked.push(`${pathOf(c)} ${o.long}`);
      }
    }
    expect(unmarked).toEqual([]);
  });

  test("enable commands say what enabling does", () => {
    for (const path of ["xpay merchant enable", "xpay channel enable"]) {
      const c = commands.find((x) => pathOf(x) === path)!;
      expect(c.description()).toMatch(/^enable an? \w+: .*again/);
      expect(c.description()).not.toMatch(/disabled/);
    }
    expect(commands.find((x) => pathOf(x) === "xpay merchant disable")!.description()).toMatch(/^disable a merchant: /);
  });
});

describe("missing required options are reported all at once", () => {
  const db = join(dir, "never.db");
  const run = (...args: string[]) => {
    const p = Bun.spawnSync([process.execPath, "src/cli/main.ts", "--db", db, ...args], { env: { ...process.env, NO_COLOR: "1" } });
    return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
  };

  test("channel add with only --qrcode names the other four in one line; nothing is created", () => {
    const r = run("channel", "add", "--qrcode", "https://qr.alipay.com/x");
    expect(r.code).toBe(1);
    expect(r.out).toBe("");
    expect(r.err).toBe("error: missing required options: --pid, --pay-type, --code, --name (see xpay channel add --help)\n");
    expect(existsSync(db)).toBe(false);
  });

  test("one missing option reads in the singular; keygen and merchant add too", () => {
    expect(run("keygen").err).toBe("error: missing required option: --pid (see xpay keygen --help)\n");
    expect(run("merchant", "add").err).toBe("error: missing required option: --name (see xpay merchant add --help)\n");
    expect(existsSync(db)).toBe(false);
  });

  test("every command with required options, given none, names exactly those (in-process)", async () => {
    const { program, close } = buildProgram();
    const problems: string[] = [];
    for (const c of all(program)) {
      const req = c.options.filter((o) => o.mandatory || o.description.includes("(required)")).map((o) => o.long!);
      if (req.length === 0) continue;
      const dummies = c.registeredArguments.filter((a) => a.required).map(() => "1");
      let message = "";
      for (const x of all(program)) x.exitOverride().configureOutput({ writeErr: (s) => void (message += s), writeOut: () => {} });
      try {
        await program.parseAsync(["node", "xpay", "--db", db, ...pathOf(c).split(" ").slice(1), ...dummies]);
        problems.push(`${pathOf(c)} ran without its required options`);
      } catch (e) {
        message = e instanceof Error ? e.message : String(e);
      }
      const named = req.filter((o) => message.includes(o));
      if (named.length !== req.length || message.trim().split("\n").length !== 1) problems.push(`${pathOf(c)}: ${message.trim()}`);
    }
    close();
    expect(problems).toEqual([]);
    expect(existsSync(db)).toBe(false);
  });
});

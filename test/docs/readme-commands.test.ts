// The README's command table (## Commands) against the CLI itself, like reference.test.ts does for
// the protocol reference: every command the program has is in the table with every option it
// takes and the arguments it needs, and the table names nothing the program does not have.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { buildProgram } from "../../src/cli/program.ts";

const all = (c: Command): Command[] => [c, ...c.commands.flatMap(all)];
const pathOf = (c: Command): string => (c.parent ? `${pathOf(c.parent)} ${c.name()}` : c.name());

/** The code spans of the first column of the ## Commands table, `\|` read as `|`. */
export function commandSpans(readme: string): string[] {
  const section = readme.split(/^## Commands\n/m)[1]?.split(/^## /m)[0] ?? "";
  const spans: string[] = [];
  for (const line of section.split("\n")) {
    if (!line.startsWith("| `")) continue;
    const first = line.slice(1).split(/(?<!\\)\|/)[0]!;
    for (const m of first.matchAll(/`([^`]+)`/g)) spans.push(m[1]!.replaceAll("\\|", "|"));
  }
  return spans;
}

interface Mention {
  text: string;
  cmd: Command | null;
  options: string[];
  args: string[];
}

/**
 * One usage: `xpay merchant list / show P [--show-secret]` is two, the second relative to the
 * first one's group. Options are the --flags; what follows an option that takes a value is its
 * value; the other words are positional arguments.
 */
function mentions(program: Command, span: string): Mention[] {
  if (!span.startsWith("xpay ")) return [];
  const out: Mention[] = [];
  let base = program;
  span.slice("xpay ".length).split(" / ").forEach((part, i) => {
    const words = part.replace(/[[\]]/g, " ").split(/\s+/).filter(Boolean);
    let cmd = i === 0 ? program : base;
    let w = 0;
    for (; w < words.length; w++) {
      const sub = cmd.commands.find((c) => c.name() === words[w]);
      if (!sub) break;
      cmd = sub;
    }
    if (i === 0) base = cmd.parent ?? program;
    const m: Mention = { text: part, cmd: cmd === program || cmd === base && i > 0 ? null : cmd, options: [], args: [] };
    for (; w < words.length; w++) {
      const word = words[w]!;
      if (!word.startsWith("--")) {
        m.args.push(word);
        continue;
      }
      m.options.push(word);
      const opt = cmd.options.find((o) => o.long === word);
      if (opt?.required || (opt?.optional && words[w + 1] !== undefined && !words[w + 1]!.startsWith("-"))) w++;
    }
    out.push(m);
  });
  return out;
}

test("the README command table lists every command, option and argument the CLI has, and nothing else", () => {
  const { program, close } = buildProgram();
  close();
  const found = commandSpans(readFileSync("README.md", "utf8")).flatMap((s) => mentions(program, s));
  const problems: string[] = [];
  for (const m of found) {
    if (!m.cmd || m.cmd.commands.length > 0) {
      problems.push(`"${m.text}" names no command`);
      continue;
    }
    for (const o of m.options) if (!m.cmd.options.some((x) => x.long === o)) problems.push(`${pathOf(m.cmd)} has no option ${o} (README "${m.text}")`);
    const args = m.cmd.registeredArguments;
    const min = args.filter((a) => a.required).length;
    if (m.args.length < min || m.args.length > args.length) {
      problems.push(`${pathOf(m.cmd)} takes ${args.map((a) => a.name()).join(" ") || "no arguments"}, README "${m.text}" shows ${m.args.join(" ") || "none"}`);
    }
  }
  for (const c of all(program).filter((x) => x.commands.length === 0)) {
    const rows = found.filter((m) => m.cmd === c);
    if (rows.length === 0) {
      problems.push(`${pathOf(c)} is not in the table`);
      continue;
    }
    for (const o of c.options) if (!rows.some((m) => m.options.includes(o.long!))) problems.push(`${pathOf(c)} ${o.long} is not in the table`);
  }
  expect(problems).toEqual([]);
});

test("the table parser reads grouped rows relative to their group (sanity)", () => {
  const { program, close } = buildProgram();
  close();
  const m = mentions(program, "xpay merchant list / show P [--show-secret] / enable P");
  expect(m.map((x) => x.cmd && pathOf(x.cmd))).toEqual(["xpay merchant list", "xpay merchant show", "xpay merchant enable"]);
  expect(m[1]).toMatchObject({ options: ["--show-secret"], args: ["P"] });
  expect(mentions(program, "xpay serve [--trust-proxy [N]] [--port 8080]")[0]).toMatchObject({ options: ["--trust-proxy", "--port"], args: [] });
  expect(mentions(program, "xpay nope")[0]!.cmd).toBeNull();
  expect(mentions(program, "xpay merchant nope --name N")[0]!.cmd!.name()).toBe("merchant"); // a group: reported as no command
});

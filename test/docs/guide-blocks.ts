// The convention the guides' shell examples follow, so that test/docs/run-guides.test.ts can run
// them top to bottom as printed (docs/decisions.md, "Issue 31: docs that run in order"):
//
// - Every ```sh block runs, in order, in one bash, unless the line just above it is
//   `<!-- not run: why -->` (a server's setup: sudo, systemd, PostgreSQL, a real Telegram bot).
//   A new example therefore either runs or says why not.
// - A comment line `# → TEXT` in a block is an answer the reader should see: some line the block
//   printed contains TEXT, where `...` stands for any text (ids, times, signatures). Other `#`
//   comments are prose. Answers are written for the guides' defaults (http://127.0.0.1:8080, the
//   stand-in merchant on 9999); the runner puts its own ports in their place.
// - The blocks read the gateway's address and the stand-in merchant's port from variables they
//   define with a default (`BASE=${BASE:-...}`, `XPAY_URL`, `HOOK_PORT`): the only things the
//   runner sets.

export interface ShellBlock {
  /** 1-based line of the opening fence in the guide. */
  line: number;
  code: string;
  /** Why it does not run, or null when it runs. */
  notRun: string | null;
  /** The `# →` answers, in order. */
  answers: string[];
}

/** The ```sh (and ```bash) blocks of a markdown file, in order. */
export function shellBlocks(markdown: string): ShellBlock[] {
  const out: ShellBlock[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(sh|bash)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && lines[j]!.trim() !== "```"; j++) body.push(lines[j]!.startsWith(indent) ? lines[j]!.slice(indent.length) : lines[j]!);
    const marker = /^\s*<!-- not run: (.+?) -->\s*$/.exec(lines[i - 1] ?? "");
    const code = body.join("\n");
    out.push({ line: i + 1, code, notRun: marker ? marker[1]! : null, answers: answersOf(code) });
    i = j;
  }
  return out;
}

function answersOf(code: string): string[] {
  return code.split("\n").flatMap((l) => {
    const m = /^\s*# → (.*)$/.exec(l);
    return m ? [m[1]!.trimEnd()] : [];
  });
}

/** A regular expression for one answer: its text literally, `...` for any run of characters. */
export function answerPattern(answer: string, ports: { base: string; hookPort: string }): RegExp {
  const text = answer.replaceAll("http://127.0.0.1:8080", ports.base).replaceAll("127.0.0.1:9999", `127.0.0.1:${ports.hookPort}`);
  return new RegExp(text.split("...").map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*"));
}

/** The answers no printed line shows. */
export function missingAnswers(answers: string[], output: string, ports: { base: string; hookPort: string }): string[] {
  const printed = output.split("\n");
  return answers.filter((a) => !printed.some((line) => answerPattern(a, ports).test(line)));
}

/**
 * One bash script of every block that runs, each between markers, with an ERR trap that names a
 * command that failed. The blocks stay as printed: they share the shell, as in one terminal.
 */
export function script(blocks: ShellBlock[]): string {
  // One output, in order: two opens of the same file would write over each other.
  const parts = ["exec 2>&1", "trap 'echo \"@@error $?: $BASH_COMMAND\"' ERR"];
  blocks.forEach((b, i) => {
    if (b.notRun !== null) return;
    parts.push(`echo "@@start ${i}"`, b.code, `echo "@@end ${i}"`);
  });
  return `${parts.join("\n")}\n`;
}

/** What block `i` printed (between its markers), or null when the run never reached its end. */
export function outputOf(all: string, i: number): string | null {
  const start = all.indexOf(`@@start ${i}\n`);
  const end = all.indexOf(`@@end ${i}\n`, start);
  if (start < 0 || end < 0) return null;
  return all.slice(start + `@@start ${i}\n`.length, end);
}

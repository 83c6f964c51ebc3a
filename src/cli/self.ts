// How to run this very xpay again, for the commands it prints (xpay dev's "notify show", the
// console's "admin add", the systemd unit's ExecStart). A bare `xpay` is only right when the
// shell finds this program under that name: from a checkout there is usually no `xpay` on PATH,
// and `npx xpay` outside the checkout asks the npm registry for somebody else's package.
import { realpathSync } from "node:fs";
import { delimiter, dirname, join, relative, resolve, sep } from "node:path";

/** True in the executable `bun build --compile` made (its modules live under /$bunfs/). */
export function isCompiled(url = import.meta.url): boolean {
  return url.includes("/$bunfs/") || url.includes("/~BUN/");
}

/** The checkout this source runs from (the folder holding package.json and bin/xpay). */
export function checkoutRoot(): string {
  return resolve(dirname(new URL(import.meta.url).pathname), "..", "..");
}

/** A word as the shell reads it: quoted only when it must be. */
export function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

function real(p: string | null | undefined): string | null {
  if (!p) return null;
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

function inside(folder: string, path: string): boolean {
  const r = relative(folder, path);
  return r === "" || (!r.startsWith("..") && !r.startsWith(sep) && r !== "..");
}

export interface SelfContext {
  compiled: boolean;
  /** The running executable: the compiled xpay, or the bun that runs the source. */
  execPath: string;
  checkout: string;
  cwd: string;
  /** What `xpay` resolves to on PATH, if anything. */
  onPath: string | null;
}

export function selfContext(path = process.env.PATH ?? ""): SelfContext {
  return { compiled: isCompiled(), execPath: process.execPath, checkout: checkoutRoot(), cwd: process.cwd(), onPath: Bun.which("xpay", { PATH: shellPath(path) }) };
}

/**
 * PATH as the operator's shell has it: npx and npm scripts put node_modules/.bin first, so under
 * `npx xpay serve` PATH finds `xpay` although the terminal the line is read in does not.
 */
export function shellPath(path: string): string {
  return path.split(delimiter).filter((d) => !/(^|[\\/])node_modules[\\/]\.bin[\\/]?$/.test(d)).join(delimiter);
}

/**
 * The words that start this xpay from the folder the command was printed in:
 * - `xpay` when PATH finds this same program under that name (the binary installed, or the
 *   checkout's bin/xpay linked with `npm link` / `ln -s`);
 * - the compiled binary's absolute path otherwise;
 * - from source: `npx xpay` inside the checkout (its package.json names the bin), else the bun
 *   that runs it and the checkout's main.ts, both absolute (bin/xpay needs `bun` on PATH).
 */
export function selfCommand(c: SelfContext = selfContext()): string {
  const target = c.compiled ? real(c.execPath) : real(join(c.checkout, "bin", "xpay"));
  if (target && real(c.onPath) === target) return "xpay";
  if (c.compiled) return shellWord(c.execPath);
  if (inside(real(c.checkout) ?? c.checkout, real(c.cwd) ?? c.cwd)) return "npx xpay";
  return `${shellWord(c.execPath)} ${shellWord(join(c.checkout, "src", "cli", "main.ts"))}`;
}

/** The absolute words a supervisor starts this xpay with (no PATH, no npx: npm does not pass SIGTERM on). */
export function selfExecStart(c: SelfContext = selfContext()): { words: string[]; fromSource: boolean } {
  if (c.compiled) return { words: [c.execPath], fromSource: false };
  return { words: [c.execPath, join(c.checkout, "src", "cli", "main.ts")], fromSource: true };
}

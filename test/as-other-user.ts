// Running the CLI as another user (`nobody`, via setpriv) when the tests run as root: root may
// write every file, so "a database this user may not write" needs someone else. That user must
// reach the program it runs and the folder it starts in. A checkout under a 0700 folder (a clone
// in `mktemp -d`) is closed to it ("error loading current directory", or the script not found),
// so there the program is bundled (the CLI, as `npm run build` bundles it) into a world-readable
// temp folder with the bun executable and the two SQLite worker files, and runs from there.
import { chmodSync, copyFileSync, existsSync, linkSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "./helpers.ts";

export const OTHER_UID = 65534; // nobody
export const asRoot = process.getuid?.() === 0;
const hasSetpriv = Bun.spawnSync(["sh", "-c", "command -v setpriv"]).exitCode === 0;
const ROOT = resolve(import.meta.dir, "..");
const WORKERS = ["src/store/sqlite/checkpoint-worker.ts", "src/store/sqlite/check-worker.ts"];

export interface OtherUser {
  /** The argv to run `xpay ARGS...` as the other user (as this one when not root). */
  argv(args: string[]): string[];
  /** The folder the command starts in: readable by that user. */
  cwd: string;
  /** Why the other user cannot run anything here (no setpriv), or null. */
  unavailable: string | null;
  /** Removes the bundle, if one was made. */
  cleanup(): void;
}

const setpriv = ["setpriv", `--reuid=${OTHER_UID}`, `--regid=${OTHER_UID}`, "--clear-groups"];

/** Can `nobody` read this file through every folder above it? */
function reachable(path: string): boolean {
  return Bun.spawnSync([...setpriv, "test", "-r", path], { cwd: "/" }).exitCode === 0;
}

/** `cwd`: a folder the caller made readable to the other user (0755), where commands start. */
export function otherUser(cwd: string): OtherUser {
  const main = join(ROOT, "src/cli/main.ts");
  if (!asRoot) return { argv: (args) => [process.execPath, main, ...args], cwd, unavailable: null, cleanup() {} };
  if (!hasSetpriv) return { argv: () => [], cwd, unavailable: "setpriv is not installed (util-linux)", cleanup() {} };
  if (reachable(main) && reachable(process.execPath)) return { argv: (args) => [...setpriv, process.execPath, main, ...args], cwd, unavailable: null, cleanup() {} };
  const dir = tempDir("xpay-as-nobody-");
  chmodSync(dir, 0o755);
  // --outdir: the bundle brings files of its own (the favicon) beside main.js.
  const built = Bun.spawnSync([process.execPath, "build", join(ROOT, "src/cli/main.ts"), "--target", "bun", "--outdir", dir], { cwd: ROOT });
  if (built.exitCode !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`bundling the CLI for another user failed: ${built.stderr.toString()}`);
  }
  // main.js starts its workers from its own folder (new URL("./checkpoint-worker.ts", import.meta.url)).
  for (const w of WORKERS) copyFileSync(join(ROOT, w), join(dir, w.split("/").pop()!));
  const bun = join(dir, "bun");
  try {
    linkSync(process.execPath, bun); // same file system: no 100 MB copy
  } catch {
    copyFileSync(process.execPath, bun);
  }
  if (!existsSync(bun)) throw new Error("could not place the bun executable for another user");
  chmodSync(bun, 0o755);
  return { argv: (args) => [...setpriv, bun, join(dir, "main.js"), ...args], cwd, unavailable: null, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

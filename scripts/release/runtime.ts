// The Bun runtime of a release target, fetched through npm rather than by `bun build` itself.
// Bun can download a cross-compile runtime on its own, but only from a hard-coded registry URL,
// with no integrity check and no use of npm's settings. `npm pack` honours the operator's registry
// (a mirror, a proxy) and npm's cache (a second build runs offline), and the tarball is checked
// against the sha512 that package-lock.json pins for the `bun` package's optional dependency.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ReleaseTarget } from "./targets.ts";

const ROOT = resolve(import.meta.dir, "../..");
const CACHE = join(ROOT, "node_modules", ".cache", "xpay-release");

/** The Bun version doing the bundling: the runtime must be the same release. */
export function bunVersion(): string {
  return (JSON.parse(readFileSync(join(ROOT, "node_modules", "bun", "package.json"), "utf8")) as { version: string }).version;
}

/** package-lock.json's integrity for node_modules/<pkg>, when the lockfile names it. */
export function lockedIntegrity(pkg: string, version: string): string | null {
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as { packages?: Record<string, { version?: string; integrity?: string }> };
  const entry = lock.packages?.[`node_modules/${pkg}`];
  return entry?.version === version && entry.integrity ? entry.integrity : null;
}

function sha512(file: string): string {
  return `sha512-${createHash("sha512").update(readFileSync(file)).digest("base64")}`;
}

function run(cmd: string[], cwd?: string): string {
  const p = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed (exit ${p.exitCode}): ${p.stderr.toString().trim()}`);
  return p.stdout.toString();
}

/** Path to the target's `bun` executable, fetched and checked once, then taken from the cache. */
export function runtimeFor(t: ReleaseTarget, version = bunVersion()): string {
  const dir = join(CACHE, `${t.runtimePackage.replace("/", "+")}@${version}`);
  const exe = join(dir, "package", "bin", t.exe ? "bun.exe" : "bun");
  if (existsSync(exe)) return exe;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const spec = `${t.runtimePackage}@${version}`;
  console.log(`release: fetching ${spec} (npm pack)`);
  run(["npm", "pack", spec, "--pack-destination", dir, "--silent", "--prefer-offline"], dir);
  const tgz = readdirSync(dir).find((f) => f.endsWith(".tgz"));
  if (!tgz) throw new Error(`npm pack ${spec} wrote no tarball`);
  const want = lockedIntegrity(t.runtimePackage, version);
  const got = sha512(join(dir, tgz));
  if (want !== null && want !== got) throw new Error(`${spec}: tarball ${got} does not match package-lock.json ${want}`);
  if (want === null) console.warn(`release: package-lock.json pins no ${spec}; trusting npm's own integrity check`);
  run(["tar", "-xzf", tgz, "package/bin"], dir);
  rmSync(join(dir, tgz)); // npm's cache keeps a copy; one is enough
  if (!existsSync(exe)) throw new Error(`${spec} has no ${exe.slice(dir.length + 1)}`);
  return exe;
}

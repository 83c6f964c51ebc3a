// npm run build: compiles the CLI, its migrations and the cashier assets into one executable,
// dist/xpay, that needs nothing beside it but its database file. scripts/build-release.ts
// compiles the same way for every release target (compile() below).
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import pkg from "../package.json";

// Worker threads are entry points of their own in a compiled executable.
const WORKERS = ["src/store/sqlite/checkpoint-worker.ts", "src/store/sqlite/check-worker.ts", "src/store/sqlite/facts-worker.ts"];

export interface CompileOptions {
  outfile: string;
  /** Bun's target name (bun-linux-arm64, bun-windows-x64, ...); the host's when absent. */
  bunTarget?: string;
  /** The release name of the target, printed by `xpay --version`. */
  label: string;
  /** A Bun runtime of that target to put the bundle into, instead of Bun downloading one. */
  runtime?: string;
  /** The build facts (src/cli/version.ts); the same for every target of one release. */
  facts: BuildFacts;
}

export interface BuildFacts {
  commit: string;
  date: string;
}

/** Commit (short, "-dirty" with uncommitted changes) and build time (SOURCE_DATE_EPOCH if set). */
export function buildFacts(): BuildFacts {
  const git = (...args: string[]) => Bun.spawnSync(["git", ...args], { stderr: "ignore" });
  const rev = git("rev-parse", "--short=12", "HEAD");
  let commit = rev.exitCode === 0 ? rev.stdout.toString().trim() : "unknown";
  const status = git("status", "--porcelain", "--untracked-files=no");
  if (rev.exitCode === 0 && status.stdout.toString().trim() !== "") commit += "-dirty";
  const epoch = Number(process.env.SOURCE_DATE_EPOCH);
  const when = Number.isFinite(epoch) && epoch > 0 ? new Date(epoch * 1000) : new Date();
  return { commit, date: when.toISOString().replace(/\.\d{3}Z$/, "Z") };
}

export function compile(o: CompileOptions): void {
  mkdirSync(dirname(o.outfile), { recursive: true });
  const define = (name: string, value: string) => ["--define", `${name}=${JSON.stringify(value)}`];
  const args = [
    process.execPath, "build", "--compile", "--splitting", "--minify", "--sourcemap=none",
    ...(o.bunTarget ? [`--target=${o.bunTarget}`] : []),
    ...(o.runtime ? [`--compile-executable-path=${o.runtime}`] : []),
    ...define("XPAY_BUILD_COMMIT", o.facts.commit),
    ...define("XPAY_BUILD_DATE", o.facts.date),
    ...define("XPAY_BUILD_TARGET", o.label),
    "src/cli/main.ts", ...WORKERS, "--outfile", o.outfile,
  ];
  const result = Bun.spawnSync(args, { cwd: `${import.meta.dir}/..`, stdout: "inherit", stderr: "inherit" });
  if (result.exitCode !== 0) throw new Error(`bun build for ${o.label} failed (exit ${result.exitCode})`);
}

/** The host's release name, for `npm run build` (dist/xpay is built for the machine it is on). */
export function hostLabel(): string {
  const os = process.platform === "win32" ? "windows" : process.platform;
  return `${os}-${process.arch}`;
}

if (import.meta.main) {
  const target = process.env.XPAY_TARGET; // e.g. bun-linux-arm64 for another platform
  try {
    compile({ outfile: "dist/xpay", bunTarget: target, label: target ? target.replace(/^bun-/, "") : hostLabel(), facts: buildFacts() });
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  }
  console.log(`built dist/xpay ${pkg.version}`);
}

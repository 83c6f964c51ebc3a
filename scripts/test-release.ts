// npm run test:release: checks dist/release as an operator would receive it (after
// `npm run build:release`; .ci/run and .github/workflows/release.yml run both).
// - SHA256SUMS lists every file once and `sha256sum -c` accepts it;
// - each file's header is its platform's (format, CPU, loader; macOS files signed) and it carries
//   this build's version line;
// - linux-x64 runs the binary smoke test (scripts/smoke-binary.ts) natively, linux-arm64 under
//   qemu-user, linux-x64-musl through Debian's musl loader when it runs there (see docs/decisions/operations.md, "Release files").
// Closes with "release: N passed, N failed, N skipped".
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import pkg from "../package.json";
import { buildFacts } from "./build.ts";
import { readHeader } from "./release/header.ts";
import { RELEASE_DIR, type ReleaseTarget, TARGETS, releaseFileName } from "./release/targets.ts";

const QEMU_ARM64 = ["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"];
const MUSL_LOADER = "/lib/ld-musl-x86_64.so.1";
// Under CI the emulator and the musl loader are installed (scripts/ci-release.sh): missing is a failure.
const strict = process.env.CI === "true";
const results = { passed: 0, failed: 0, skipped: 0 };

function check(name: string, ok: boolean, detail = ""): boolean {
  results[ok ? "passed" : "failed"]++;
  console.log(`release: ${ok ? "ok  " : "FAIL"} ${name}${detail ? `: ${detail}` : ""}`);
  return ok;
}

function skip(name: string, why: string): void {
  if (strict && !why.startsWith("not runnable")) return void check(name, false, why);
  results.skipped++;
  console.log(`release: skip ${name}: ${why}`);
}

function has(cmd: string): boolean {
  return Bun.spawnSync(["sh", "-c", `command -v ${cmd}`]).exitCode === 0;
}

/** How this machine runs a target's file, or why it cannot. */
function runnerFor(t: ReleaseTarget): { cmd: string[] } | { why: string } {
  if (process.platform !== "linux" || t.format !== "elf") return { why: `not runnable on ${process.platform}-${process.arch}` };
  if (t.arch === process.arch && t.label !== "linux-x64-musl") return { cmd: [] };
  if (t.arch === "arm64") return has(QEMU_ARM64[0]!) && existsSync(QEMU_ARM64[2]!) ? { cmd: QEMU_ARM64 } : { why: "qemu-aarch64 or /usr/aarch64-linux-gnu missing (apt-get install qemu-user libc6-arm64-cross)" };
  if (t.label === "linux-x64-musl") return existsSync(MUSL_LOADER) ? { cmd: [] } : { why: `${MUSL_LOADER} missing (apt-get install musl)` };
  return { why: `not runnable on ${process.arch}` };
}

function sums(): void {
  const path = join(RELEASE_DIR, "SHA256SUMS");
  if (!check("SHA256SUMS exists", existsSync(path))) return;
  const listed = readFileSync(path, "utf8").trim().split("\n").map((l) => l.split(/ [ *]/)[1]);
  const files = readdirSync(RELEASE_DIR).filter((f) => f !== "SHA256SUMS").sort();
  check("SHA256SUMS lists every file once", JSON.stringify([...listed].sort()) === JSON.stringify(files), `${listed.length} listed, ${files.length} files`);
  const c = Bun.spawnSync(["sha256sum", "-c", "SHA256SUMS"], { cwd: RELEASE_DIR });
  check("sha256sum -c SHA256SUMS", c.exitCode === 0, c.stdout.toString().trim().split("\n").join("; "));
}

/** The build's facts, read from the first file this machine runs (they are one per release). */
function expectedLine(t: ReleaseTarget, facts: { commit: string; date: string }): string {
  return `${pkg.version} (commit ${facts.commit}, built ${facts.date}, ${t.label})`;
}

function carriesVersion(file: string, t: ReleaseTarget, facts: { commit: string; date: string }): boolean {
  const bytes = readFileSync(file);
  const at = bytes.indexOf(`"${facts.date}"`);
  return at >= 0 && bytes.indexOf(`"${facts.commit}"`) >= 0 && bytes.subarray(at, at + 200).includes(`"${t.label}"`);
}

async function main(): Promise<void> {
  if (!existsSync(RELEASE_DIR)) throw new Error(`no ${RELEASE_DIR}: run npm run build:release first`);
  sums();
  let facts: { commit: string; date: string } | null = null;
  const present = TARGETS.filter((t) => existsSync(join(RELEASE_DIR, releaseFileName(pkg.version, t))));
  check("every target built", present.length === TARGETS.length, present.map((t) => t.label).join(", "));
  for (const t of present) {
    const file = join(RELEASE_DIR, releaseFileName(pkg.version, t));
    const h = readHeader(file);
    const want = `${t.format}/${t.arch}${t.interpreter ? ` ${t.interpreter}` : ""}${t.format === "macho" ? " signed" : ""}`;
    const got = `${h.format}/${h.arch}${h.interpreter ? ` ${h.interpreter}` : ""}${h.signed ? " signed" : ""}`;
    check(`${t.label} header`, want === got, got);
    const run = runnerFor(t);
    if ("why" in run) {
      if (facts) check(`${t.label} carries the version line`, carriesVersion(file, t, facts));
      else skip(`${t.label} version line`, "no file ran before it to read the build's facts from");
      skip(`${t.label} run`, run.why);
      continue;
    }
    const v = Bun.spawnSync([...run.cmd, file, "--version"], { stdout: "pipe", stderr: "pipe" });
    const out = v.stdout.toString().trim();
    const err = v.stderr.toString();
    if (v.exitCode !== 0 && t.label === "linux-x64-musl" && /libstdc\+\+\.so\.6/.test(err)) {
      // Bun's musl build links libstdc++ and libgcc built for musl (Alpine: apk add libstdc++);
      // Debian packages the musl libc only, so the file cannot start on this machine.
      skip(`${t.label} run`, `not runnable here: ${MUSL_LOADER} found no musl libstdc++.so.6 (Debian has none; Alpine: apk add libstdc++)`);
      if (facts) check(`${t.label} carries the version line`, carriesVersion(file, t, facts));
      continue;
    }
    const m = /\(commit (\S+), built (\S+), /.exec(out);
    facts ??= m ? { commit: m[1]!, date: m[2]! } : null;
    const head = buildFacts().commit.replace(/-dirty$/, "");
    check(`${t.label} --version${run.cmd.length ? ` (${run.cmd[0]})` : ""}`, v.exitCode === 0 && facts !== null && out === expectedLine(t, facts) && facts.commit.startsWith(head), out || err.trim().slice(0, 300));
    const smoke = Bun.spawnSync([process.execPath, join(import.meta.dir, "smoke-binary.ts"), file], {
      env: { ...process.env, XPAY_SMOKE_RUNNER: run.cmd.join(" ") },
      stdout: "inherit",
      stderr: "inherit",
    });
    const steps = run.cmd.length ? "migrate, favicon, create, simulate-pay, notify, SIGTERM" : "migrate, favicon, create, simulate-pay, notify, rule, SIGTERM";
    check(`${t.label} smoke (${steps})${run.cmd.length ? ` under ${run.cmd.join(" ")}` : ""}`, smoke.exitCode === 0);
  }
}

try {
  await main();
} catch (e) {
  check("release folder", false, e instanceof Error ? e.message : String(e));
}
console.log(`release: ${results.passed} passed, ${results.failed} failed, ${results.skipped} skipped`);
process.exitCode = results.failed > 0 ? 1 : 0;

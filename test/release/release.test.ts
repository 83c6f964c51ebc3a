// The release tooling's own parts: the version line (source vs compiled), the header reader that
// test-release.ts trusts for the files this machine cannot run, the target table, and the
// lockfile pins for each target's Bun runtime. The binaries themselves: npm run test:release.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../../package.json";
import { versionLine } from "../../src/cli/version.ts";
import { readHeader } from "../../scripts/release/header.ts";
import { bunVersion, lockedIntegrity } from "../../scripts/release/runtime.ts";
import { TARGETS, releaseFileName, selectTargets } from "../../scripts/release/targets.ts";

const ROOT = join(import.meta.dir, "..", "..");

describe("version line", () => {
  test("a run from the checkout says source", () => {
    const p = Bun.spawnSync([process.execPath, "src/cli/main.ts", "--version"], { cwd: ROOT });
    expect(p.exitCode).toBe(0);
    expect(p.stdout.toString().trim()).toBe(`${pkg.version} (source)`);
  });

  test("a build names commit, date and target", () => {
    const line = versionLine({ version: "1.2.3", commit: "abc123def456", date: "2026-11-26T21:00:00Z", target: "linux-arm64" });
    expect(line).toBe("1.2.3 (commit abc123def456, built 2026-11-26T21:00:00Z, linux-arm64)");
  });
});

describe("file headers", () => {
  const dir = mkdtempSync(join(tmpdir(), "xpay-header-"));
  const write = (name: string, b: Buffer) => (writeFileSync(join(dir, name), b), join(dir, name));

  test("the running Bun is read as what it is", () => {
    const h = readHeader(process.execPath);
    if (process.platform === "linux") expect(h.format).toBe("elf");
    if (process.platform === "darwin") expect(h.format).toBe("macho");
    expect(h.arch).toBe(process.arch === "arm64" ? "arm64" : "x64");
  });

  test("Mach-O: CPU and whether a code signature is present", () => {
    const macho = (signed: boolean) => {
      const b = Buffer.alloc(64);
      b.writeUInt32LE(0xfeedfacf, 0);
      b.writeUInt32LE(0x0100000c, 4); // arm64
      b.writeUInt32LE(1, 16); // ncmds
      b.writeUInt32LE(16, 20); // sizeofcmds
      b.writeUInt32LE(signed ? 0x1d : 0x19, 32);
      b.writeUInt32LE(16, 36);
      return b;
    };
    expect(readHeader(write("signed", macho(true)))).toEqual({ format: "macho", arch: "arm64", signed: true });
    expect(readHeader(write("unsigned", macho(false)))).toEqual({ format: "macho", arch: "arm64", signed: false });
  });

  test("PE: machine type; anything else is unknown", () => {
    const b = Buffer.alloc(128);
    b.write("MZ", 0, "latin1");
    b.writeUInt32LE(64, 0x3c);
    b.write("PE\0\0", 64, "latin1");
    b.writeUInt16LE(0x8664, 68);
    expect(readHeader(write("pe.exe", b))).toEqual({ format: "pe", arch: "x64" });
    expect(readHeader(write("text", Buffer.from("#!/bin/sh\necho not a binary\n".padEnd(80, " "))))).toEqual({ format: "unknown", arch: "other" });
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("targets", () => {
  test("six files, musl and windows named so", () => {
    expect(TARGETS.map((t) => releaseFileName("0.1.0", t))).toEqual([
      "xpay-0.1.0-linux-x64",
      "xpay-0.1.0-linux-x64-musl",
      "xpay-0.1.0-linux-arm64",
      "xpay-0.1.0-darwin-arm64",
      "xpay-0.1.0-darwin-x64",
      "xpay-0.1.0-windows-x64.exe",
    ]);
  });

  test("--targets narrows a run and names an unknown target", () => {
    expect(selectTargets(["--targets", "linux-arm64,linux-x64"]).map((t) => t.label)).toEqual(["linux-x64", "linux-arm64"]);
    expect(() => selectTargets(["--targets", "linux-riscv64"])).toThrow(/unknown target linux-riscv64; known: linux-x64/);
  });

  test("package-lock.json pins every target's Bun runtime at the bundler's version", () => {
    const v = bunVersion();
    for (const t of TARGETS) expect(lockedIntegrity(t.runtimePackage, v), t.runtimePackage).toMatch(/^sha512-[A-Za-z0-9+/]+=*$/);
  });
});

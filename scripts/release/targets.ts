// The release targets: the name an operator downloads, Bun's --target, and the npm package that
// carries that platform's Bun runtime (the bundle is appended to a copy of it). The runtime
// packages are the `bun` package's own optional dependencies, so package-lock.json pins their
// sha512 and the build checks each tarball against it.
export interface ReleaseTarget {
  /** Release name: xpay-<version>-<label>[.exe]. */
  label: string;
  bunTarget: string;
  runtimePackage: string;
  exe: boolean;
  /** What the file header must say (scripts/release/header.ts). */
  format: "elf" | "macho" | "pe";
  arch: "x64" | "arm64";
  /** ELF: the dynamic loader the file asks for (glibc's or musl's). */
  interpreter?: string;
}

export const TARGETS: readonly ReleaseTarget[] = [
  { label: "linux-x64", bunTarget: "bun-linux-x64", runtimePackage: "@oven/bun-linux-x64", exe: false, format: "elf", arch: "x64", interpreter: "/lib64/ld-linux-x86-64.so.2" },
  { label: "linux-x64-musl", bunTarget: "bun-linux-x64-musl", runtimePackage: "@oven/bun-linux-x64-musl", exe: false, format: "elf", arch: "x64", interpreter: "/lib/ld-musl-x86_64.so.1" },
  { label: "linux-arm64", bunTarget: "bun-linux-arm64", runtimePackage: "@oven/bun-linux-aarch64", exe: false, format: "elf", arch: "arm64", interpreter: "/lib/ld-linux-aarch64.so.1" },
  { label: "darwin-arm64", bunTarget: "bun-darwin-arm64", runtimePackage: "@oven/bun-darwin-aarch64", exe: false, format: "macho", arch: "arm64" },
  { label: "darwin-x64", bunTarget: "bun-darwin-x64", runtimePackage: "@oven/bun-darwin-x64", exe: false, format: "macho", arch: "x64" },
  { label: "windows-x64", bunTarget: "bun-windows-x64", runtimePackage: "@oven/bun-windows-x64", exe: true, format: "pe", arch: "x64" },
];

export const RELEASE_DIR = "dist/release";

export function releaseFileName(version: string, t: ReleaseTarget): string {
  return `xpay-${version}-${t.label}${t.exe ? ".exe" : ""}`;
}

/** `--targets linux-x64,linux-arm64` (or XPAY_RELEASE_TARGETS) narrows a run; default all six. */
export function selectTargets(argv: string[]): ReleaseTarget[] {
  const i = argv.indexOf("--targets");
  const wanted = (i >= 0 ? argv[i + 1] : process.env.XPAY_RELEASE_TARGETS)?.split(",").map((s) => s.trim()).filter(Boolean);
  if (!wanted?.length) return [...TARGETS];
  const unknown = wanted.filter((w) => !TARGETS.some((t) => t.label === w));
  if (unknown.length) throw new Error(`unknown target ${unknown.join(", ")}; known: ${TARGETS.map((t) => t.label).join(", ")}`);
  return TARGETS.filter((t) => wanted.includes(t.label));
}

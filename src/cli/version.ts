// The version line `xpay --version` prints. A compiled binary carries its build facts as constants
// the bundler writes in (scripts/build.ts: --define), so a downloaded file says which commit,
// when and for which platform it was built; a run from the checkout has none and says "source".
import pkg from "../../package.json";

// Replaced by `bun build --define` in a compiled binary; undeclared (typeof "undefined") in source.
declare const XPAY_BUILD_COMMIT: string;
declare const XPAY_BUILD_DATE: string;
declare const XPAY_BUILD_TARGET: string;

export interface BuildInfo {
  version: string;
  /** Short commit hash, "-dirty" when the tree had changes; null in a source run. */
  commit: string | null;
  /** ISO 8601 UTC build time; null in a source run. */
  date: string | null;
  /** Release target (linux-x64, linux-x64-musl, darwin-arm64, ...); null in a source run. */
  target: string | null;
}

export function buildInfo(): BuildInfo {
  return {
    version: pkg.version,
    commit: typeof XPAY_BUILD_COMMIT === "string" ? XPAY_BUILD_COMMIT : null,
    date: typeof XPAY_BUILD_DATE === "string" ? XPAY_BUILD_DATE : null,
    target: typeof XPAY_BUILD_TARGET === "string" ? XPAY_BUILD_TARGET : null,
  };
}

/** "0.1.0 (commit 2c666aa, built 2026-11-26T21:30:00Z, linux-arm64)" or "0.1.0 (source)". */
export function versionLine(b: BuildInfo = buildInfo()): string {
  if (b.commit === null) return `${b.version} (source)`;
  return `${b.version} (commit ${b.commit}, built ${b.date ?? "?"}, ${b.target ?? "?"})`;
}

// The temporary folders the tests make, removed after the run's last test (test/cleanup.ts, which
// bunfig.toml preloads): many test files made theirs and never removed them.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const made = new Set<string>();

export function tempDir(prefix = "xpay-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // a folder something still holds: left to the system's temp cleaning
    }
  }
  made.clear();
}

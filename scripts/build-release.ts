// npm run build:release: the one executable for every platform an operator may run, in
// dist/release/xpay-<version>-<target>[.exe], with SHA256SUMS beside them (`sha256sum -c` format)
// and a version line built into each (`xpay --version`: version, commit, build date, target).
// Each target's Bun runtime comes from the npm registry (scripts/release/runtime.ts), so this runs
// on any machine with npm, for every target, without the platforms themselves.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pkg from "../package.json";
import { buildFacts, compile } from "./build.ts";
import { runtimeFor } from "./release/runtime.ts";
import { RELEASE_DIR, releaseFileName, selectTargets } from "./release/targets.ts";

export function sha256File(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

function main(): void {
  const targets = selectTargets(process.argv.slice(2));
  const facts = buildFacts(); // one commit and one date for the whole release
  // A fresh folder: SHA256SUMS must list exactly the files a release attaches.
  if (existsSync(RELEASE_DIR)) for (const f of readdirSync(RELEASE_DIR)) rmSync(join(RELEASE_DIR, f), { force: true });
  mkdirSync(RELEASE_DIR, { recursive: true });
  const sums: string[] = [];
  for (const t of targets) {
    const name = releaseFileName(pkg.version, t);
    const t0 = performance.now();
    compile({ outfile: join(RELEASE_DIR, name), bunTarget: t.bunTarget, runtime: runtimeFor(t), label: t.label, facts });
    const mb = (statSync(join(RELEASE_DIR, name)).size / 1e6).toFixed(1);
    console.log(`release: ${name} ${mb} MB in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    sums.push(`${sha256File(join(RELEASE_DIR, name))}  ${name}`);
  }
  writeFileSync(join(RELEASE_DIR, "SHA256SUMS"), `${sums.join("\n")}\n`);
  console.log(`release: ${targets.length} files and SHA256SUMS in ${RELEASE_DIR} (${pkg.version}, commit ${facts.commit}, built ${facts.date})`);
}

if (import.meta.main) {
  try {
    main();
  } catch (e) {
    console.error(`release: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
}

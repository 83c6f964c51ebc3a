// The command StrykerJS runs for each mutant (`npm run mutate`, see stryker.config.mjs). Stryker
// puts every mutant into the sandbox's source at once and names the active one in an environment
// variable; the instrumented file that holds that id is the module under test, so only that
// module's test files run, and `--bail` stops at the first failing test. The dry run (no active
// mutant) runs every planned test file once.
import { readFileSync } from "node:fs";

type Entry = { mutate: string[]; tests: string[] };

// The plan lives in the Stryker config (plain JavaScript, read by Node); imported by path.
const config = "../stryker.config.mjs";
const entries = (await import(config)).plan as Entry[];
const id = process.env.__STRYKER_ACTIVE_MUTANT__;
const fileOf = (m: string) => m.replace(/:\d+(:\d+)?-\d+(:\d+)?$/, "");

function testsFor(mutant: string | undefined): string[] {
  const chosen = mutant === undefined ? entries : entries.filter((e) => e.mutate.some((m) => readFileSync(fileOf(m), "utf8").includes(`stryMutAct_9fa48("${mutant}")`)));
  // A mutant found nowhere (it should not happen) runs every planned file rather than none.
  return [...new Set((chosen.length > 0 ? chosen : entries).flatMap((e) => e.tests))];
}

const run = Bun.spawnSync([process.execPath, "test", "--bail", ...testsFor(id)], { stdout: "inherit", stderr: "inherit", env: process.env });
process.exit(run.exitCode ?? 1);

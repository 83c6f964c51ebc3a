// Mutation testing of the code that moves money (issue 21): `npm run mutate`. Not part of .ci/run.
// StrykerJS has no Bun runner, so its command runner runs scripts/mutate-tests.ts for each mutant:
// that script runs `bun test --bail` over only the test files of the module the active mutant is
// in (the `plan` below), which keeps one run under an hour on two shared cores.
// Parts of files are named by function (or by a line's text), not by line numbers, so the ranges
// follow the code as it is edited.
import { readFileSync } from "node:fs";

const linesOf = (file) => readFileSync(new URL(file, import.meta.url), "utf8").split("\n");

/** `file:start-end` of a top-level function: its `function name(` line to the next `}` at column 0. */
function fn(file, name) {
  const lines = linesOf(file);
  const start = lines.findIndex((l) => new RegExp(`^(export )?(async )?function ${name}\\b`).test(l));
  if (start < 0) throw new Error(`stryker.config.mjs: no function ${name} in ${file}`);
  const end = lines.findIndex((l, i) => i > start && l === "}");
  return `${file}:${start + 1}-${end + 1}`;
}

/** `file:n-n` of the one line that contains `text`. */
function line(file, text) {
  const n = linesOf(file).findIndex((l) => l.includes(text));
  if (n < 0) throw new Error(`stryker.config.mjs: no line with ${text} in ${file}`);
  return `${file}:${n + 1}-${n + 1}`;
}

const REPORT_TESTS = [
  "test/report/match-rule.test.ts",
  "test/money/match-decisions.test.ts",
  "test/money/settle-unit.test.ts",
  "test/money/narrowing.test.ts",
  "test/report/matching.test.ts",
  "test/report/cross-merchant.test.ts",
  "test/report/report-api.test.ts",
  "test/money/pay-path.test.ts",
];
const NOTIFY_TESTS = ["test/money/outbox.test.ts", "test/notify/delivery.test.ts", "test/notify/worker.test.ts", "test/security/notify-fairness.test.ts", "test/notify/cli.test.ts"];

/** What is mutated, and the test files that must kill it. */
export const plan = [
  { mutate: ["src/protocols/signing.ts"], tests: ["test/core/signing.test.ts", "test/money/signing.test.ts", "test/epay-v2/codec.test.ts"] },
  { mutate: ["src/protocols/timestamp.ts"], tests: ["test/money/timestamp.test.ts"] },
  { mutate: ["src/core/money.ts"], tests: ["test/core/money.test.ts", "test/money/amounts.test.ts"] },
  { mutate: ["src/core/allocation.ts"], tests: ["test/core/allocation.test.ts", "test/money/slots.test.ts", "test/core/round-robin.test.ts", "test/money/offset-bound.test.ts"] },
  {
    mutate: [fn("src/store/sqlite/channels.ts", "candidateAccounts"), fn("src/store/sqlite/channels.ts", "takenTradeAmounts")],
    tests: ["test/money/slots.test.ts", "test/security/paid-slot.test.ts", "test/report/matching.test.ts"],
  },
  { mutate: ["src/core/report-match.ts", "src/core/settle-report.ts", "src/store/sqlite/report-match.ts"], tests: REPORT_TESTS },
  { mutate: ["src/core/order-state.ts"], tests: ["test/money/pay-path.test.ts", "test/money/order-state.test.ts"] },
  { mutate: ["src/core/pay-order.ts", "src/store/sqlite/pay.ts"], tests: ["test/money/pay-path.test.ts", "test/money/settle-unit.test.ts", "test/report/matching.test.ts", "test/report/report-api.test.ts"] },
  {
    mutate: [
      "src/core/notify/schedule.ts",
      "src/store/sqlite/outbox.ts",
      fn("src/protocols/epay-v1/codec.ts", "isPlainSuccess"),
      line("src/protocols/hashpay/codec.ts", "const ACK ="),
      line("src/protocols/hashpay/codec.ts", "isAcknowledged:"),
      line("src/protocols/native/codec.ts", "isAcknowledged:"),
    ],
    tests: NOTIFY_TESTS,
  },
];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: "command",
  commandRunner: { command: "node_modules/.bin/bun scripts/mutate-tests.ts" },
  coverageAnalysis: "off", // the command runner cannot tell which test covers which mutant
  checkers: [], // no TypeScript checker: a mutant that would not type-check still runs under Bun
  mutate: plan.flatMap((p) => p.mutate),
  concurrency: 2,
  timeoutMS: 10000,
  // Only what the tests above need is copied into the sandbox.
  ignorePatterns: ["dist", "bench", "e2e", "docs", "*.db", "*.db-wal", "*.db-shm", ".tmp", "coverage"],
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/mutation.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  thresholds: { high: 95, low: 90, break: 90 },
  tempDirName: ".stryker-tmp",
};

// The operator guide's examples use what its own setup created: the account code of its
// `channel add`, the secret its `merchant add` or `client add-report` printed (read back, not a
// sample value), and one database path for the operator's shell and the systemd unit.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

const root = resolve(import.meta.dir, "../..");
const guide = readFileSync(resolve(root, "docs/operator-guide.md"), "utf8");
/** The unit the guide's own `xpay systemd ...` line prints (the guide no longer ships a copied example). */
function guideUnit(): string {
  const line = /^xpay systemd (.+?) \| sudo tee \/etc\/systemd\/system\/xpay\.service$/m.exec(guide);
  expect(line).not.toBeNull();
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1" };
  delete env.XPAY_DB;
  const p = Bun.spawnSync([process.execPath, resolve(root, "src/cli/main.ts"), "systemd", ...line![1]!.split(" ")], { env });
  expect(p.exitCode).toBe(0);
  return p.stdout.toString();
}

/** The ```sh blocks, in order. */
const shellBlocks = [...guide.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);

test("report examples name the account the guide's setup created", () => {
  const codes = [...guide.matchAll(/xpay channel add [^\n]*(?:\\\n[^\n]*)*/g)].flatMap((m) => [...m[0].matchAll(/--code (\S+)/g)].map((c) => c[1]!));
  expect(codes.length).toBeGreaterThan(0);
  const used = [...guide.matchAll(/\b(?:channel_code|sub_account)=([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
  expect(used.length).toBeGreaterThan(0);
  expect(used.filter((c) => !codes.includes(c))).toEqual([]);
});

test("every request sent for real is signed with a secret read from the database (a client's or the AppSecret), not a sample", () => {
  let secret = "";
  const problems: string[] = [];
  for (const block of shellBlocks) {
    for (const line of block.split("\n")) {
      const set = /^SECRET=(.*)$/.exec(line);
      if (set) secret = set[1]!;
      // A request to the server in a block that signs with $SECRET.
      const signed = /\bcurl\b/.test(line) && block.includes("$SECRET");
      const fromDb = /^\$\(xpay (merchant show \d+ --show-secret|client (show|add-report) [^)]*--json)/.test(secret);
      if (signed && !fromDb) problems.push(`${line.trim()} (SECRET=${secret})`);
    }
  }
  expect(problems).toEqual([]);
});

test("the shell and the systemd unit name one database: XPAY_DB in both", () => {
  const shell = /export XPAY_DB=([^\s']+)/.exec(guide);
  const service = /^Environment=XPAY_DB=(\S+)$/m.exec(guideUnit());
  expect(shell?.[1]).toBe("/var/lib/xpay/xpay.db");
  expect(service?.[1]).toBe(shell![1]);
});

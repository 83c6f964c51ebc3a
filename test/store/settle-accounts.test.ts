// The report settlement's accounts (MatchView.accounts) come from the kept directory on SQLite,
// read under the version the write transaction sees: an account changed by another connection
// (the CLI on the same file) is in the very next settlement, with the merchant's own and the
// shared ones in listChannels' order (sort, then id).
import { afterEach, beforeEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { because } from "../../src/core/reasons.ts";
import type { MatchView } from "../../src/core/report-match.ts";
import type { DirectoryAccount, ReportRecord } from "../../src/core/store.ts";
import { harness, type Harness, seed } from "../helpers.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h); // merchant 1001 with its own account "alipay_qr"
});
afterEach(() => h.close());

const report: ReportRecord = { kind: "amount", pid: 1001, client: "t", raw: "{}", amount: 1000, payType: "alipay", channelCode: "", dedupeKey: null, outcome: "unmatched", reason: "", tradeNo: null, createdAt: 0 };

/** Settles one report and returns the codes of the accounts the rule saw for 1001, and for everyone. */
let read: readonly DirectoryAccount[] = [];
async function seen(): Promise<{ mine: string[]; all: string[] }> {
  let out = { mine: [] as string[], all: [] as string[] };
  await h.gw.store.settleReport({
    report: { ...report, createdAt: h.clock.now() },
    decide: (v: MatchView) => {
      read = v.accounts(null);
      out = { mine: v.accounts(1001).map((a) => a.code), all: read.map((a) => a.code) };
      return { kind: "unmatched", reason: because("no_pending", { claim: { amount: 1000, pay_type: "alipay" } }) };
    },
    pay: () => { throw new Error("nothing is paid here"); },
    notPaid: () => because("no_pending", { claim: { amount: 1000, pay_type: "alipay" } }),
  });
  return out;
}

test("an account renamed, added or moved by another connection is in the next settlement", async () => {
  expect(await seen()).toEqual({ mine: ["alipay_qr"], all: ["alipay_qr"] });

  const cli = new Database(h.dbPath);
  const add = cli.query("INSERT INTO channel_accounts (pid, pay_type, code, name, qrcode, sort, created_at) VALUES ($pid, 'alipay', $code, $code, 'q', $sort, 0)");
  cli.query("UPDATE channel_accounts SET code = 'renamed'").run();
  add.run({ pid: 0, code: "shared", sort: -1 }); // shared, sorted first
  add.run({ pid: 2002, code: "other", sort: 0 }); // another merchant's: not 1001's
  expect(await seen()).toEqual({ mine: ["shared", "renamed"], all: ["renamed", "shared", "other"] });

  cli.query("UPDATE channel_accounts SET pid = 1001 WHERE code = 'other'").run();
  expect((await seen()).mine).toEqual(["shared", "renamed", "other"]);
  cli.query("DELETE FROM channel_accounts WHERE code = 'shared'").run();
  cli.close();
  expect(await seen()).toEqual({ mine: ["renamed", "other"], all: ["renamed", "other"] });
});

test("the settlement and the reports' authentication share one kept directory", async () => {
  await seen();
  const kept = read;
  expect((await h.gw.store.directory()).accounts).toBe(kept); // the list the settlement read, not a second read
  await seen();
  expect(read).toBe(kept); // nothing moved: the same frozen answer
  await h.gw.store.addChannel({ pid: 0, payType: "alipay", code: "new", name: "New", qrcode: "q", now: h.clock.now() });
  expect((await seen()).mine).toEqual(["alipay_qr", "new"]);
  expect(read).not.toBe(kept);
  expect((await h.gw.store.directory()).accounts).toBe(read);
});

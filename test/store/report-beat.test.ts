// On SQLite a payment report's heartbeat (the client and its accounts marked seen) is written in
// the report's own savepoint: the phone's answer waits for one commit, not two, and a report whose
// beat cannot be written is not settled either, so the phone's retry finds its order still payable.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import type { SqliteStore } from "../../src/store/sqlite/index.ts";
import { harness, type Harness, seed } from "../helpers.ts";
import { amountReport, createOrder, report, smsContent } from "../report/util.ts";

let h: Harness;
let commits = 0;
beforeEach(async () => {
  h = harness();
  await seed(h);
  const stats = (h.gw.store as SqliteStore).stats;
  const wrote = stats.wrote.bind(stats);
  commits = 0;
  stats.wrote = (seconds: number) => {
    commits++;
    wrote(seconds);
  };
});
afterEach(() => h.close());

test("an amount report that pays is answered after one commit, with its phone and account marked seen", async () => {
  const o = await createOrder(h);
  h.clock.advance(5);
  commits = 0;
  const r = await amountReport(h, 1000, { coll_user: "till-1" });
  expect(r.body.data).toMatchObject({ outcome: "matched", trade_no: o.trade_no });
  expect(commits).toBe(1);
  expect((await h.gw.store.getChannel(1))!.lastSeenAt).toBe(h.clock.now());
});

test("a forwarded message that pays, and one that settles nothing, are answered after one commit each", async () => {
  const o = await createOrder(h);
  h.clock.advance(5);
  commits = 0;
  const paid = await report(h, "/1001", { from: "com.eg.android.AlipayGphone", content: smsContent("支付宝通知", "你已成功收款10.00元") });
  expect(paid.body.data).toMatchObject({ outcome: "matched", trade_no: o.trade_no });
  expect(commits).toBe(1);
  const phone = (await h.gw.store.listClients()).find((c) => c.kind === "phone");
  expect(phone?.lastSeenAt).toBe(h.clock.now());
  commits = 0;
  const missed = await report(h, "/1001", { from: "com.eg.android.AlipayGphone", content: smsContent("支付宝通知", "你已成功收款12.00元") });
  expect(missed.body.data.outcome).toBe("unmatched");
  expect(commits).toBe(1);
});

test("a report whose beat cannot be written is not settled; the same report pays once it can", async () => {
  const o = await createOrder(h);
  h.clock.advance(5);
  const other = new Database(h.dbPath);
  other.exec(`CREATE TRIGGER refuse_beat BEFORE UPDATE OF last_seen_at ON channel_accounts BEGIN SELECT RAISE(ABORT, 'beat refused'); END`);
  const refused = await amountReport(h, 1000, { coll_user: "till-1" });
  expect(refused.body.code).not.toBe(200);
  expect((await h.gw.store.getOrder(o.trade_no))!.status).toBe(1);
  expect(await h.gw.store.listReports({})).toEqual([]);
  expect(await h.gw.store.getNotification(o.trade_no)).toBeNull();
  other.exec("DROP TRIGGER refuse_beat");
  other.close();
  const again = await amountReport(h, 1000, { coll_user: "till-1" });
  expect(again.body.data).toMatchObject({ outcome: "matched", trade_no: o.trade_no });
  expect((await h.gw.store.getOrder(o.trade_no))!.status).toBe(2);
  expect((await h.gw.store.getChannel(1))!.lastSeenAt).toBe(h.clock.now());
});

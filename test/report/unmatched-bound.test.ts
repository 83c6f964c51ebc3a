// Issue 27 item 6: one signer keeps at most report_unmatched_daily unmatched reports a day. Payments
// that paid no order and forwarded messages that were not a payment count apart (a chatty phone
// never crowds out money); past the bound a report is answered 200 with why it was not stored and
// counted; the report_bound alert fires while the signer is at its bound and resolves when the day
// ends; a stored report keeps only its kind's fields.
import { afterEach, expect, test } from "bun:test";
import { alertHarness, pass } from "../alerts/util.ts";
import { amountReport, report, smsContent } from "./util.ts";

let close = () => {};
afterEach(() => close());

async function setup(bound: string) {
  const x = await alertHarness();
  close = x.close;
  await x.h.gw.store.setSetting("report_unmatched_daily", bound);
  x.h.gw.forgetSettings();
  expect(await pass(x.h, x.s)).toEqual([]); // starts the event cursors
  return x;
}

test("past the bound: counted, not stored, answered 200 with the reason; messages and payments count apart", async () => {
  const { h, s } = await setup("3");
  const replies = [];
  for (let i = 0; i < 5; i++) replies.push(await amountReport(h, 700 + i, { pay_time: `2026-11-22 10:00:0${i}`, note: "y".repeat(5000) }));
  expect(replies.map((r) => [r.status, r.body.data.outcome, r.body.data.report_id !== null])).toEqual([
    [200, "unmatched", true], [200, "unmatched", true], [200, "unmatched", true], [200, "unmatched", false], [200, "unmatched", false],
  ]);
  expect(replies[3]!.body.message).toContain("not stored: 3 unmatched reports of this signer are stored today already (report_unmatched_daily)");

  // A forwarded chat message is not a payment: its own count, so it is stored although payments are at the bound.
  const msg = (i: number) => report(h, "/1001", { from: "phone", content: smsContent("张三", `晚上吃饭吗 ${i}`, "com.tencent.mm") });
  const messages = [];
  for (let i = 0; i < 4; i++) messages.push((await msg(i)).body.data.report_id !== null);
  expect(messages).toEqual([true, true, true, false]);

  const rows = await h.gw.store.listReports({ outcome: "unmatched", limit: 100 });
  expect(rows.length).toBe(6);
  for (const r of rows.filter((x) => x.kind === "amount")) expect(r.raw).not.toContain("note");
  expect(await h.gw.store.listReportBounds({ sinceDay: 0, limit: 10 })).toMatchObject([
    { key: "merchant:1001:message", stored: 3, dropped: 1 },
    { key: "merchant:1001:payment", stored: 3, dropped: 2 },
  ]);

  // The alert: one per signer and kind at the bound, resolved when the day is over.
  const fired = (await pass(h, s)).filter((m) => m.condition === "report_bound");
  expect(fired.map((m) => [m.event, m.key]).sort()).toEqual([
    ["firing", "report_bound:merchant:1001:message"],
    ["firing", "report_bound:merchant:1001:payment"],
  ]);
  expect(fired[0]).toMatchObject({ refs: { pid: 1001 } });
  expect(fired.find((m) => m.key.endsWith(":payment"))!.title).toContain("merchant:1001: 3 unmatched payment reports today, the daily bound");
  expect((await pass(h, s)).filter((m) => m.condition === "report_bound")).toEqual([]);
  h.clock.advance(86_400);
  expect((await pass(h, s)).filter((m) => m.condition === "report_bound").map((m) => m.event)).toEqual(["resolved", "resolved"]);
  // A new day, a new count.
  expect((await amountReport(h, 801, { pay_time: "2026-11-23 10:00:00" })).body.data.report_id).not.toBeNull();
});

test("the report_bound alert can be turned off; report_unmatched_daily 0 stores every unmatched report", async () => {
  const { h, s } = await setup("2");
  await h.gw.store.setSetting("alert_report_bound", "0");
  h.gw.forgetSettings();
  for (let i = 0; i < 3; i++) await amountReport(h, 700 + i, { pay_time: `2026-11-22 10:00:0${i}` });
  expect((await pass(h, s)).filter((m) => m.condition === "report_bound")).toEqual([]);
  await h.gw.store.setSetting("report_unmatched_daily", "0");
  h.gw.forgetSettings();
  for (let i = 0; i < 3; i++) expect((await amountReport(h, 800 + i, { pay_time: `2026-11-22 11:00:0${i}` })).body.data.report_id).not.toBeNull();
  expect((await h.gw.store.listReports({ outcome: "unmatched", limit: 100 })).length).toBe(5);
});

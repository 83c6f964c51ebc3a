// Issue 31, item 7. A report source is a client only when it is one: an amount report signed with
// the merchant's AppSecret names where the money was seen (coll_user, uid, else the channel_code),
// and used to add a "phone" row of that name, which the client_silent alert then watched and
// alerted on. Now it refreshes a row of that name (a phone that sends heartbeats) but adds none,
// and still marks its accounts seen. Keyed clients, heartbeats and forwarded messages (whose
// `from` is the forwarder's own name) are clients as before. And what the
// operator guide says about alerts before the first channel: a condition still holding is sent on
// the first pass after the channel exists; a one-off event from before (an unmatched report) is not.
import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { amountReport, createOrder, report } from "../report/util.ts";
import { addChannel, alertHarness, harness, pass, sink, WEBHOOK_SECRET } from "./util.ts";
import { seed } from "../helpers.ts";

let close = () => {};
afterEach(() => close());

test("amount reports signed with the AppSecret add no client, mark their account seen, and nothing goes silent", async () => {
  const x = await alertHarness();
  close = x.close;
  const order = await createOrder(x.h);
  const paid = await amountReport(x.h, 1000);
  expect(paid.body.data).toMatchObject({ outcome: "matched", trade_no: order.trade_no });
  await amountReport(x.h, 4242, { pay_time: "2026-11-22 13:00:00" }); // money nobody ordered
  await amountReport(x.h, 4343, { coll_user: "someone@example.com", uid: "2088" });
  expect(await x.h.gw.store.listClients()).toEqual([]);
  expect((await x.h.gw.store.getChannel(x.account.id))!.lastSeenAt).toBe(x.h.clock.now());
  x.h.clock.advance(3600);
  const sent = await pass(x.h, x.s);
  expect(sent.map((m) => m.condition)).not.toContain("client_silent");
});

test("a heartbeat makes the client a row (watched for silence); its later amount reports keep it alive", async () => {
  const x = await alertHarness();
  close = x.close;
  expect((await report(x.h, "/1001/heart", { client_name: "till-1" })).status).toBe(200);
  expect((await x.h.gw.store.listClients()).map((c) => [c.kind, c.name])).toEqual([["phone", "till-1"]]);
  x.h.clock.advance(60);
  await amountReport(x.h, 500, { coll_user: "till-1" });
  expect((await x.h.gw.store.listClients()).map((c) => [c.name, c.lastSeenAt])).toEqual([["till-1", x.h.clock.now()]]);
  x.h.clock.advance(3600);
  expect((await pass(x.h, x.s)).map((m) => [m.event, m.key])).toContainEqual(["firing", "client_silent:client:1"]);
});

test("before the first channel: the condition still holding goes out on the next pass; the unmatched report from then does not", async () => {
  const h = harness();
  const s = sink();
  close = () => (s.stop(), h.close());
  await seed(h);
  await pass(h, s); // the first pass with alerts sets the cursors: earlier reports are history
  await amountReport(h, 4242); // unmatched: an event while no channel exists
  await report(h, "/1001/heart", { client_name: "till-1" });
  h.clock.advance(3600); // till-1 is silent now
  expect(await pass(h, s)).toEqual([]);
  await addChannel(h, "first", "webhook", { url: `${s.url}/alerts`, secret: WEBHOOK_SECRET });
  expect((await pass(h, s)).map((m) => [m.event, m.condition])).toEqual([["firing", "client_silent"]]);
  // Once a channel exists, the next unmatched report is sent.
  await amountReport(h, 4343);
  expect((await pass(h, s)).map((m) => [m.event, m.condition])).toEqual([["firing", "unmatched_report"]]);
});

test("the operator guide says the same", () => {
  const guide = readFileSync(join(import.meta.dir, "..", "..", "docs", "operator-guide.md"), "utf8").replace(/\s+/g, " ");
  for (const said of [
    "While no channel exists nothing is sent. A condition that still holds when you add the first channel",
    "one-off events from that time (unmatched reports, late payments) are not sent",
    "marks its accounts online, and adds no `client list` row, so no `client_silent` alert follows it",
  ]) expect({ said, there: guide.includes(said) }).toEqual({ said, there: true });
});

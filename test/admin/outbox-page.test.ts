// Issue 28, /admin/notifications: the outbox from the console on `xpay notify`'s functions: the
// list filtered by status, resend of one (audited as notification.replay by the core), 404 for an
// order without a notification.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { deliverDue } from "../../src/core/notify/deliver.ts";
import { payOrder } from "../../src/core/pay-order.ts";
import { seed } from "../helpers.ts";
import { createOrder } from "../report/util.ts";
import { type AdminHarness, adminHarness, auditRows } from "./support.ts";

let h: AdminHarness;
let up = false;
const receiver = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => (up ? new Response("success") : new Response("down", { status: 503 })) });
const trades: string[] = [];

beforeAll(async () => {
  h = await adminHarness();
  await seed(h);
  for (const money of ["1.00", "2.00"]) {
    const o = await createOrder(h, { money, notify_url: `http://127.0.0.1:${receiver.port}/n` });
    expect((await payOrder(h.gw, o.trade_no)).kind).toBe("paid");
    trades.push(o.trade_no);
  }
  up = true;
  await h.gw.store.requeueNotification(trades[1]!, h.clock.nowMs());
  await deliverDue(h.gw);
  up = false;
});
afterAll(() => {
  receiver.stop(true);
  h.close();
});

test("the list, all and by status", async () => {
  const all = await (await h.get("/admin/notifications")).text();
  for (const tn of trades) expect(all).toContain(`data-trade-no="${tn}"`);
  const delivered = await (await h.get("/admin/notifications?status=delivered")).text();
  expect(delivered).toContain("已送达");
  const n = (await h.gw.store.listNotifications({ status: "delivered" })).map((x) => x.tradeNo);
  for (const tn of trades) expect(delivered.includes(`data-trade-no="${tn}"`)).toBe(n.includes(tn));
  expect(await (await h.get("/admin/notifications?status=failed")).text()).toContain("没有这样的通知");
});

test("resend: queued again, audited, back to the filter", async () => {
  const tn = trades[0]!;
  const r = await h.post(`/admin/notifications/${tn}/resend?status=pending`, {});
  expect(r.status).toBe(303);
  expect(r.headers.get("location")).toBe(`/admin/notifications?status=pending&resent=${tn}`);
  const a = (await auditRows(h)).at(-1)!;
  expect(a.action).toBe("notification.replay");
  expect(a.target).toContain(tn);
  expect((await h.post("/admin/notifications/nope/resend", {})).status).toBe(404);
  expect((await h.post(`/admin/notifications/${tn}/resend`, {}, { csrf: null })).status).toBe(403);
});

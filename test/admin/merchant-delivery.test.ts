// Issue 28, a merchant's notification delivery in the console: the merchants list shows income
// today / 7 / 30 days and delivery health (last success, failing since with the last error, the
// queue); the merchant page shows its API details, links to its orders, and resends every failed
// notification at once (a reason required, one audit row with the count), the outcome updating
// itself ("已重新排队 3 条，3 条已送达") without a reload.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { deliverDue } from "../../src/core/notify/deliver.ts";
import { payOrder } from "../../src/core/pay-order.ts";
import { seed } from "../helpers.ts";
import { createOrder } from "../report/util.ts";
import { type AdminHarness, adminHarness, auditRows } from "./support.ts";

let h: AdminHarness;
let up = false;
const receiver = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => (up ? new Response("success") : new Response("down", { status: 503 })) });
const HX = { headers: { "hx-request": "true" } };

beforeAll(async () => {
  h = await adminHarness();
  await seed(h);
  await h.gw.store.addMerchant({ pid: 1002, name: "Quiet", secret: "b".repeat(32), now: h.clock.now() });
  for (const money of ["1.00", "2.50", "3.00"]) {
    const o = await createOrder(h, { money, notify_url: `http://127.0.0.1:${receiver.port}/n` });
    expect((await payOrder(h.gw, o.trade_no)).kind).toBe("paid");
  }
  expect(await deliverDue(h.gw)).toEqual({ attempted: 3, delivered: 0 });
});
afterAll(() => {
  receiver.stop(true);
  h.close();
});

const snapshot = async () => JSON.stringify([await h.gw.store.listNotifications({}), (await auditRows(h)).length]);

describe("merchants list", () => {
  test("income today / 7 d / 30 d and delivery health beside each merchant", async () => {
    const html = await (await h.get("/admin/merchants")).text();
    const row = html.slice(html.indexOf('data-pid="1001"'), html.indexOf('data-pid="1002"'));
    expect(row).toContain("¥6.50");
    expect(row).toContain("3 笔");
    expect(row).toContain('data-delivery="failing"');
    expect(row).toContain("从未送达成功");
    expect(row).toContain("HTTP 503");
    expect(row).toContain("待发送 3 · 失败未送达 3");
    expect(row).not.toContain("已放弃");
    const quiet = html.slice(html.indexOf('data-pid="1002"'));
    expect(quiet).toContain('data-delivery="idle"');
  });

  test("in English too", async () => {
    const html = await (await h.get("/admin/merchants/1001", { cookie: `${h.login.cookie}; xpay_lang=en` })).text();
    expect(html).toContain("Failing");
    expect(html).toContain("Never delivered");
    expect(html).toContain("3 queued · 3 failed, undelivered");
    expect(html).toContain("Resend every failed notification (3)");
    expect(html).toContain("API details");
  });
});

describe("merchant page", () => {
  test("API details (pid, a base URL per family), income and links to its orders", async () => {
    const html = await (await h.get("/admin/merchants/1001")).text();
    expect(html).toContain('id="merchant-api"');
    expect(html).toContain("http://127.0.0.1:8080/xpay/epay/");
    expect(html).toContain("http://127.0.0.1:8080/api/report/1001");
    expect(html).toContain('href="/admin/orders?pid=1001"');
    expect(html).toContain("重发全部失败通知（3 条）");
  });

  test("resend refusals: no reason (htmx and plain form), unknown merchant, nothing failing; nothing changes", async () => {
    const before = await snapshot();
    const hx = await h.post("/admin/merchants/1001/resend", { reason: " " }, HX);
    expect(hx.status).toBe(422);
    const box = await hx.text();
    expect(box).toContain("请填写原因（至少 2 个字）。");
    expect(box.startsWith('<section class="card" id="merchant-delivery"')).toBe(true);
    const plain = await h.post("/admin/merchants/1001/resend", {});
    expect(plain.status).toBe(422);
    expect(await plain.text()).toContain('id="merchant-api"'); // the whole page, the message in the box
    expect((await h.post("/admin/merchants/4242/resend", { reason: "back up" })).status).toBe(404);
    const none = await h.post("/admin/merchants/1002/resend", { reason: "back up" }, HX);
    expect(none.status).toBe(422);
    expect(await none.text()).toContain("没有失败的通知需要重发。");
    expect(await snapshot()).toBe(before);
  });

  test("resend: every failed notification re-queued, audited with the count; the outcome polls until all are delivered", async () => {
    const res = await h.post("/admin/merchants/1001/resend", { reason: "商户已修复服务器" }, HX);
    expect(res.status).toBe(200);
    const box = await res.text();
    expect(box).toContain("已重新排队 3 条，0 条已送达，3 条待发送");
    const poll = box.match(/hx-get="([^"]+)"/)![1]!.replaceAll("&amp;", "&");
    expect(box).toContain('hx-trigger="every 2s"');
    expect(box).not.toContain('id="resend-form"'); // no form while it polls
    const audit = (await auditRows(h)).at(-1)!;
    expect(audit).toMatchObject({ actor: "alice", action: "notification.resend_failing", target: "merchant:1001", reason: "商户已修复服务器" });
    expect(audit.after).toEqual({ requeued: 3 });
    up = true;
    expect(await deliverDue(h.gw)).toEqual({ attempted: 3, delivered: 3 });
    const after = await (await h.get(poll, HX)).text();
    expect(after).toContain("已重新排队 3 条，3 条已送达");
    expect(after).toContain('data-delivery="ok"'); // the whole box follows
    expect(after).not.toContain("hx-get"); // done: it stops polling
    const list = await (await h.get("/admin/merchants")).text();
    expect(list.slice(list.indexOf('data-pid="1001"'), list.indexOf('data-pid="1002"'))).toContain('data-delivery="ok"');
  });

  test("without script: the form posts, the answer is the page with the outcome", async () => {
    const res = await h.post("/admin/merchants/1001/resend", { reason: "again" });
    expect(res.status).toBe(422); // nothing is failing any more
    expect(await res.text()).toContain("没有失败的通知需要重发。");
    const page = await (await h.get("/admin/merchants/1001?requeued=3&base=0&at=" + h.clock.nowMs())).text();
    expect(page).toContain("已重新排队 3 条，3 条已送达");
  });
});

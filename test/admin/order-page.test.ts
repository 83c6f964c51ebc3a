// Issue 17, an order's page: every field, the timeline (each report, each notification attempt with
// what was sent and what the merchant answered, operator actions), and the actions: send the
// notification again (it reaches the merchant's endpoint through the worker's deliverDue), close a
// pending order, confirm a payment by hand with a required reason. Each is audited with before and
// after; a refusal is inline (422) and changes nothing.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { deliverDue } from "../../src/core/notify/deliver.ts";
import { seed } from "../helpers.ts";
import { type Receiver, startReceiver } from "../notify/receiver.ts";
import { amountReport, createOrder } from "../report/util.ts";
import { type AdminHarness, adminHarness, auditRows } from "./support.ts";

let h: AdminHarness;
let rx: Receiver | null = null;
beforeEach(async () => {
  h = await adminHarness();
  await seed(h);
});
afterEach(() => {
  rx?.stop();
  rx = null;
  h.close();
});

const HX = { headers: { "hx-request": "true" } };
const kinds = (html: string) => [...html.matchAll(/<li class="ev[^"]*" data-kind="([a-z_]+)"/g)].map((m) => m[1]);

/** What a refused action must leave as it was. */
async function state(tradeNo: string) {
  return JSON.stringify({
    order: await h.gw.store.getOrder(tradeNo), notification: await h.gw.store.getNotification(tradeNo),
    reports: await h.gw.store.browse.reportsForOrder(tradeNo, 100), audit: await auditRows(h),
  });
}

describe("the page", () => {
  test("every field, escaped; a missing or malformed order is a 404", async () => {
    const o = await createOrder(h, { name: "<script>alert(1)</script>", param: "<img src=x onerror=alert(1)>", notify_url: "http://127.0.0.1:9/n?a=1&b=2" });
    const res = await h.get(`/admin/orders/${o.trade_no}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<h1>订单 ${o.trade_no}</h1>`);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("http://127.0.0.1:9/n?a=1&amp;b=2");
    expect(html).toContain('<dd class="num">¥10.00</dd>');
    expect(html).toContain('<span class="tag tag-accent" data-status="1">待支付</span>');
    expect(kinds(html)).toEqual(["created", "allocated"]);
    for (const path of ["/admin/orders/20260101000000000000", "/admin/orders/x%3Cscript%3E", "/admin/orders/%20"]) {
      const r = await h.get(path);
      expect({ path, status: r.status }).toEqual({ path, status: 404 });
      expect(await r.text()).toContain("没有这个订单。");
    }
  });

  test("the timeline: the report that paid it, the notification, each attempt with the merchant's answer", async () => {
    rx = startReceiver(["<b>not ok</b>", "success"]);
    const o = await createOrder(h, { notify_url: rx.url });
    await amountReport(h, 1000);
    await deliverDue(h.gw);
    await rx.waitFor(1);
    const html = await (await h.get(`/admin/orders/${o.trade_no}`)).text();
    expect(kinds(html)).toEqual(["created", "allocated", "report", "paid", "notify_queued", "notify_attempt"]);
    expect(html).toContain(`trade_no=${o.trade_no}`); // what was sent, one parameter a line
    expect(html).toContain("<b>HTTP 200</b>");
    expect(html).toContain("&lt;b&gt;not ok&lt;/b&gt;"); // what the merchant answered, as text
    expect(html).toContain("商户未确认");
    expect(html).toMatch(/<a href="\/admin\/reports\/\d+">#\d+<\/a>/);
  });
});

describe("send the notification again", () => {
  test("re-queued, audited, and it reaches the merchant again through the worker", async () => {
    rx = startReceiver(["success"]);
    const o = await createOrder(h, { notify_url: rx.url });
    await amountReport(h, 1000);
    await deliverDue(h.gw);
    await rx.waitFor(1);
    expect((await h.gw.store.getNotification(o.trade_no))?.status).toBe("delivered");
    h.clock.advance(60);

    let woken = 0; // the worker of a running serve is woken at once, not at its next poll
    const off = h.gw.onNotificationQueued(() => woken++);
    const res = await h.post(`/admin/orders/${o.trade_no}/replay`, {}, HX);
    off();
    expect(res.status).toBe(200);
    expect(woken).toBe(1);
    const html = await res.text();
    expect(html.startsWith('<div id="order-view"')).toBe(true); // the htmx swap, not a whole page
    expect(html).toContain("通知已重新排队，马上发送。");
    expect((await h.gw.store.getNotification(o.trade_no))?.status).toBe("pending");
    const row = (await auditRows(h)).at(-1)!;
    expect(row).toMatchObject({ actor: "alice", action: "notification.replay", target: `order:${o.trade_no}` });
    expect(row.before).toMatchObject({ status: "delivered", attempts: 1 });
    expect(row.after).toMatchObject({ status: "pending", attempts: 1, next_attempt_at_ms: h.clock.nowMs() });

    expect(await deliverDue(h.gw)).toEqual({ attempted: 1, delivered: 1 });
    await rx.waitFor(2);
    expect(rx.received[1]!.params.trade_no).toBe(o.trade_no);
    const page = await (await h.get(`/admin/orders/${o.trade_no}`)).text();
    expect(kinds(page).filter((k) => k === "notify_attempt")).toHaveLength(2);
    expect(kinds(page)).toContain("operator");
    expect(page).toContain("重新发送通知");
  });

  test("an order without notify_url has nothing to send: refused inline, nothing changed", async () => {
    const o = await createOrder(h);
    const page = await (await h.get(`/admin/orders/${o.trade_no}`)).text();
    expect(page).not.toContain('id="order-replay"');
    const before = await state(o.trade_no);
    const res = await h.post(`/admin/orders/${o.trade_no}/replay`, {});
    expect(res.status).toBe(422);
    expect(await res.text()).toContain("该订单没有通知（下单时未提供异步通知地址）。");
    expect(await state(o.trade_no)).toBe(before);
  });

  test("without script: a plain POST comes back to the page with the notice", async () => {
    const o = await createOrder(h, { notify_url: "http://127.0.0.1:9/n" });
    await amountReport(h, 1000);
    const res = await h.post(`/admin/orders/${o.trade_no}/replay`, {});
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/admin/orders/${o.trade_no}?done=replayed`);
    expect(await (await h.get(res.headers.get("location")!)).text()).toContain("通知已重新排队，马上发送。");
    expect(await (await h.get(`/admin/orders/${o.trade_no}?done=constructor`)).text()).not.toContain('id="action-done"');
  });
});

describe("close", () => {
  test("a pending order: closed, audited with before and after; again: refused, nothing changed", async () => {
    const o = await createOrder(h);
    expect(await (await h.get(`/admin/orders/${o.trade_no}`)).text()).toContain('id="order-close"');
    const res = await h.post(`/admin/orders/${o.trade_no}/close`, {}, HX);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("订单已关闭。");
    expect(html).not.toContain('id="order-close"');
    expect(html).not.toContain('id="order-confirm"'); // a closed order cannot be confirmed either
    expect((await h.gw.store.getOrder(o.trade_no))?.status).toBe(3);
    const row = (await auditRows(h)).at(-1)!;
    expect(row).toMatchObject({ actor: "alice", action: "order.close", target: `order:${o.trade_no}`, before: { status: "pending" }, after: { status: "closed" } });

    const before = await state(o.trade_no);
    const again = await h.post(`/admin/orders/${o.trade_no}/close`, {}, HX);
    expect(again.status).toBe(422);
    expect(await again.text()).toContain("只能关闭待支付的订单，未做任何更改。");
    expect(await state(o.trade_no)).toBe(before);
  });

  test("a timed-out order offers no close and refuses one", async () => {
    const o = await createOrder(h);
    h.clock.advance(901);
    const fresh = await h.session();
    expect(await (await h.get(`/admin/orders/${o.trade_no}`, { cookie: fresh.cookie })).text()).not.toContain('id="order-close"');
    const before = await state(o.trade_no);
    const res = await h.post(`/admin/orders/${o.trade_no}/close`, {}, { cookie: fresh.cookie, csrf: fresh.csrf });
    expect(res.status).toBe(422);
    expect(await state(o.trade_no)).toBe(before);
  });

  test("an unknown order is a 404 and writes nothing", async () => {
    const before = JSON.stringify(await auditRows(h));
    for (const action of ["close", "replay", "confirm"]) {
      const res = await h.post(`/admin/orders/20260101000000000000/${action}`, { reason: "bank statement" });
      expect({ action, status: res.status }).toEqual({ action, status: 404 });
    }
    expect(JSON.stringify(await auditRows(h))).toBe(before);
  });
});

describe("confirm by hand (补单)", () => {
  test("no reason, or a blank or too long one: 422 under the field, the text kept, nothing changed", async () => {
    const o = await createOrder(h, { notify_url: "http://127.0.0.1:9/n" });
    const before = await state(o.trade_no);
    for (const [reason, message] of [["", "请填写原因：哪笔账单或哪条记录证明钱已到账。"], ["   ", "请填写原因：哪笔账单或哪条记录证明钱已到账。"], ["x".repeat(201), "原因最多 200 个字符。"]] as const) {
      const res = await h.post(`/admin/orders/${o.trade_no}/confirm`, { reason }, HX);
      expect(res.status).toBe(422);
      const html = await res.text();
      expect(html).toContain(`<p class="field-error" id="f-reason-error">${message}</p>`);
      expect(html).toMatch(/<textarea id="f-reason"[^>]*aria-invalid="true"/);
    }
    const kept = await (await h.post(`/admin/orders/${o.trade_no}/confirm`, { reason: `<i>${"x".repeat(200)}` }, HX)).text();
    expect(kept).toContain(`&lt;i&gt;${"x".repeat(200)}</textarea>`);
    expect(await state(o.trade_no)).toBe(before);
  });

  test("with a reason: paid, the notification queued, an operator report, audited with the reason; then refused", async () => {
    const o = await createOrder(h, { notify_url: "http://127.0.0.1:9/n" });
    h.clock.advance(3 * 3600); // long timed out: still confirmable by hand
    const fresh = await h.session();
    const as = { cookie: fresh.cookie, csrf: fresh.csrf };
    const res = await h.post(`/admin/orders/${o.trade_no}/confirm`, { reason: "支付宝账单 10:02 ¥10.00" }, as);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/admin/orders/${o.trade_no}?done=confirmed`);
    expect((await h.gw.store.getOrder(o.trade_no))?.status).toBe(2);
    expect((await h.gw.store.getNotification(o.trade_no))?.status).toBe("pending");
    expect(await h.gw.store.browse.reportsForOrder(o.trade_no, 10)).toMatchObject([{ kind: "operator", client: "alice", outcome: "matched" }]);
    const row = (await auditRows(h)).at(-1)!;
    expect(row).toMatchObject({
      actor: "alice", action: "order.confirm", target: `order:${o.trade_no}`, reason: "支付宝账单 10:02 ¥10.00",
      before: { status: "timed out", paid_at: null }, after: { status: "paid" },
    });
    const page = await (await h.get(res.headers.get("location")!, as)).text();
    expect(page).toContain("已补单：订单已支付，商户通知已排队。");
    expect(page).toContain("手动补单"); // the operator event in the timeline
    expect(page).toContain("支付宝账单 10:02 ¥10.00");
    expect(page).not.toContain('id="order-confirm"');

    const before = await state(o.trade_no);
    const again = await h.post(`/admin/orders/${o.trade_no}/confirm`, { reason: "once more" }, { ...as, ...HX });
    expect(again.status).toBe(422);
    expect(await again.text()).toContain("订单已支付，未做任何更改。");
    expect(await state(o.trade_no)).toBe(before);
  });

  test("the confirm form asks first and requires the reason in the browser too", async () => {
    const o = await createOrder(h);
    const html = await (await h.get(`/admin/orders/${o.trade_no}`)).text();
    expect(html).toMatch(/<form method="post" action="\/admin\/orders\/\d+\/confirm" hx-post="[^"]+" hx-target="#order-view" hx-swap="outerHTML" hx-confirm="确定将这个订单标记为已支付并通知商户？此操作不可撤销。" id="order-confirm">/);
    expect(html).toMatch(/<textarea id="f-reason" name="reason" required maxlength="200"/);
  });
});

// Each alert condition fires once and resolves, driven by the ManualClock, through the real store,
// the real evaluation pass and a webhook channel to a local receiver.
import { afterEach, describe, expect, test } from "bun:test";
import { settleOperatorPayment } from "../../src/core/settle-report.ts";
import { nativeCreate, postJson } from "../helpers.ts";
import { amountReport, createOrder, report, smsContent } from "../report/util.ts";
import { alertHarness, pass } from "./util.ts";

let close = () => {};
afterEach(() => close());

async function setup() {
  const x = await alertHarness();
  close = x.close;
  expect(await pass(x.h, x.s)).toEqual([]); // starts the event cursors
  return x;
}

const seen = (x: Awaited<ReturnType<typeof setup>>, name: string, accounts: number[] = []) =>
  x.h.gw.store.recordClientSeen({ kind: "phone", pid: 1001, name, channelId: null, extData: "", lastSeenAt: x.h.clock.now() }, accounts);

describe("state conditions", () => {
  test("client_silent: fires once after the threshold, resolves when the client reports", async () => {
    const x = await setup();
    await seen(x, "pixel7");
    x.h.clock.advance(90);
    expect(await pass(x.h, x.s)).toEqual([]); // 90 s is not longer than 90 s
    x.h.clock.advance(1);
    const [fired] = await pass(x.h, x.s);
    expect(fired).toMatchObject({ event: "firing", condition: "client_silent", command: "xpay client list", refs: { pid: 1001 } });
    expect(fired.key).toMatch(/^client_silent:client:\d+$/);
    expect(fired.text).toContain('"pixel7"');
    expect(fired.text).toContain("since: ");
    x.h.clock.advance(600);
    expect(await pass(x.h, x.s)).toEqual([]); // once per instance
    await seen(x, "pixel7");
    expect(await pass(x.h, x.s)).toMatchObject([{ event: "resolved", key: fired.key }]);
    expect(await pass(x.h, x.s)).toEqual([]);
  });

  test("client_silent never fires before heartbeat_timeout, whatever its own threshold", async () => {
    const x = await setup();
    await x.h.gw.store.setSetting("alert_client_silent", "30");
    await x.h.gw.store.setSetting("heartbeat_timeout", "120");
    x.h.gw.forgetSettings();
    await seen(x, "p");
    x.h.clock.advance(100);
    expect(await pass(x.h, x.s)).toEqual([]);
    x.h.clock.advance(21);
    expect(await pass(x.h, x.s)).toMatchObject([{ condition: "client_silent" }]);
  });

  test("account_offline: pending orders on an account nobody watches; resolved when a client comes", async () => {
    const x = await setup();
    const order = await createOrder(x.h);
    x.h.clock.advance(59);
    expect(await pass(x.h, x.s)).toEqual([]);
    x.h.clock.advance(1);
    const [fired] = await pass(x.h, x.s);
    expect(fired).toMatchObject({ condition: "account_offline", key: `account_offline:account:${x.account.id}`, refs: { accountId: x.account.id, tradeNo: order.trade_no } });
    expect(fired.command).toContain(`xpay order inspect ${order.trade_no}`);
    await seen(x, "phone", [x.account.id]);
    expect(await pass(x.h, x.s)).toMatchObject([{ event: "resolved", key: fired.key }]);
  });

  test("create_failures: N failed creations of a merchant in the window; resolved when they age out", async () => {
    const x = await setup();
    // No wxpay account: each of these fails at creation (status 5).
    const failing = () => postJson(x.h, "/xpay/order/create", nativeCreate({ pay_type: "wxpay" }));
    for (let i = 0; i < 4; i++) expect((await failing()).body.code).toBe(422);
    expect(await pass(x.h, x.s)).toEqual([]);
    await failing();
    const failed = await x.h.gw.store.listOrders({ pid: 1001, status: 5 });
    expect(failed.length).toBe(5);
    const [fired] = await pass(x.h, x.s);
    expect(fired).toMatchObject({ condition: "create_failures", key: "create_failures:merchant:1001", refs: { pid: 1001 } });
    expect(fired.text).toContain("5 orders failed at creation");
    expect(fired.command).toBe("xpay order list --pid 1001 --status failed; xpay channel list");
    x.h.clock.advance(601);
    expect(await pass(x.h, x.s)).toMatchObject([{ event: "resolved", key: "create_failures:merchant:1001" }]);
  });

  test("unparsed_messages: a payment sender's notifications in a new wording; chats and red packets do not count", async () => {
    const x = await setup();
    const send = (title: string, msg: string, pkg?: string) => report(x.h, "/1001", { from: "p", content: smsContent(title, msg, pkg) });
    await send("张三", "在吗？转我10.00元", "com.tencent.mm"); // a chat: not a payment sender
    await send("支付宝", "恭喜你获得一个红包"); // refused wording: recognised as no payment
    await send("支付宝", "到账提醒：收款1.00元已存入余额");
    await send("支付宝通知", "到账提醒：收款2.00元已存入余额");
    expect(await pass(x.h, x.s)).toEqual([]);
    await send("支付宝", "到账提醒：收款3.00元已存入余额");
    const [fired] = await pass(x.h, x.s);
    expect(fired).toMatchObject({ condition: "unparsed_messages", key: "unparsed_messages:merchant:1001", command: "xpay rules unparsed --pid 1001 --from-sender" });
    expect(fired.text).toContain("3 payment notifications");
    x.h.clock.advance(3601);
    // The phone that forwarded them fell silent meanwhile: that is its own alert.
    const later = await pass(x.h, x.s);
    expect(later.filter((m) => m.condition === "unparsed_messages")).toMatchObject([{ event: "resolved", key: fired.key }]);
    expect(later.map((m) => m.condition).sort()).toEqual(["client_silent", "unparsed_messages"]);
  });
});

describe("event conditions", () => {
  test("unmatched_report: money with no order fires once, with the report and the command", async () => {
    const x = await setup();
    const r = await amountReport(x.h, 777);
    expect(r.body.data.outcome).toBe("unmatched");
    const [fired] = await pass(x.h, x.s);
    expect(fired).toMatchObject({ condition: "unmatched_report", key: `unmatched_report:report:${r.body.data.report_id}`, refs: { pid: 1001, reportId: r.body.data.report_id } });
    expect(fired.title).toContain("7.77 yuan");
    expect(fired.command).toBe("xpay report list --pid 1001 --outcome unmatched");
    expect(await pass(x.h, x.s)).toEqual([]);
  });

  test("late_payment: paid after timing out (credited), and for a closed order (nothing paid)", async () => {
    const x = await setup();
    const a = await createOrder(x.h);
    x.h.clock.advance(900 + 60); // timed out, inside the match window
    const paid = await amountReport(x.h, Math.round(Number(a.trade_amount) * 100));
    expect(paid.body.data.outcome).toBe("matched");
    const [late] = await pass(x.h, x.s);
    expect(late).toMatchObject({ condition: "late_payment", refs: { tradeNo: a.trade_no } });
    expect(late.title).toContain("paid");

    const b = await createOrder(x.h);
    expect(await x.h.gw.store.closeOrder(b.trade_no, x.h.clock.now())).toBe(true);
    x.h.clock.advance(30);
    const refused = await amountReport(x.h, Math.round(Number(b.trade_amount) * 100), { pay_time: "x" });
    expect(refused.body.data.outcome).toBe("unmatched");
    const got = await pass(x.h, x.s);
    expect(got).toMatchObject([{ condition: "late_payment", refs: { tradeNo: b.trade_no } }]);
    expect(got[0].title).toContain("nothing paid");
  });

  test("simulate-pay (an operator report) and heartbeats alert nothing", async () => {
    const x = await setup();
    const a = await createOrder(x.h);
    await seen(x, "phone", [x.account.id]);
    await settleOperatorPayment(x.h.gw, a.trade_no);
    await settleOperatorPayment(x.h.gw, a.trade_no); // already paid: an unmatched operator report
    expect(await pass(x.h, x.s)).toEqual([]);
  });

  test("history from before the first pass is not alerted", async () => {
    const x = await alertHarness();
    close = x.close;
    await amountReport(x.h, 555);
    expect(await pass(x.h, x.s)).toEqual([]);
    await amountReport(x.h, 556);
    expect(await pass(x.h, x.s)).toMatchObject([{ condition: "unmatched_report" }]);
  });
});

// Operator rules through the real report API (issue 18): a payment in a wording no rule knows is
// kept and counted, a rule for it is added (by another process, as the CLI beside a server), and
// the same notification sent again pays.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { CLI_ACTOR } from "../../src/core/admin/audit.ts";
import { addRule, removeRule } from "../../src/core/rules/manage.ts";
import { forgetOperatorRules } from "../../src/core/rules/operator-rules.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import { harness, type Harness, seed } from "../helpers.ts";
import { createOrder, report } from "../report/util.ts";

const A = String.raw`(?<amount>\d+(?:\.\d{1,2})?)`;
const NEW_WORDING = { pkg: "com.tencent.mm", titles: ["微信支付"], text: `^收款到账${A}元，来自.{1,20}$`, payType: "wxpay" };

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
  await h.gw.store.addChannel({ pid: 1001, payType: "wxpay", code: "wx", name: "WeChat", qrcode: "https://example.com/wx", now: h.clock.now() });
});
afterEach(() => h.close());

const content = (title: string, msg: string, pkg = "com.tencent.mm", at = "2026-11-23 13:14:15") =>
  JSON.stringify({ from: pkg, package_name: pkg, app_name: "微信", title, msg, receive_time: at, device_name: "shop-phone" });
const send = (c: string) => report(h, "/1001", { from: "shop-phone", content: c });
const statusOf = async (t: string) => (await h.gw.store.getOrder(t))?.status;

describe("a new wording", () => {
  test("is kept and counted, a rule is added beside the server, the same notification re-sent pays", async () => {
    const order = await createOrder(h, { pay_type: "wxpay", money: "13.22" });
    const message = content("微信支付", "收款到账13.22元，来自张三");
    const first = await send(message);
    expect(first.body.data).toMatchObject({ outcome: "unmatched", trade_no: "" });
    expect(first.body.message).toContain("not a payment message");
    expect(await statusOf(order.trade_no)).toBe(1);

    const kept = await h.gw.store.rules.listUnparsed({});
    expect(kept).toEqual([expect.objectContaining({ pid: 1001, pkg: "com.tencent.mm", title: "微信支付", text: "收款到账13.22元，来自张三", count: 1 })]);
    expect(await h.gw.store.rules.listUnparsed({ since: h.clock.now() })).toHaveLength(1);
    expect(await h.gw.store.rules.listUnparsed({ since: h.clock.now() + 1 })).toEqual([]);

    // The phone sends it again before anyone acts: counted on the same row, still unpaid.
    await send(message);
    expect((await h.gw.store.rules.listUnparsed({}))[0]!.count).toBe(2);

    // `xpay rules add` in another process: its own gateway on the same database file.
    const cli = openGateway({ db: h.dbPath });
    const added = await addRule(cli, CLI_ACTOR, NEW_WORDING);
    cli.store.close();
    expect(added).toMatchObject({ ok: true, rule: { name: "wxpay-1" } });

    // Within the second the server still reads its cached rules; after it, the new one.
    expect((await send(message)).body.data.outcome).toBe("unmatched");
    h.clock.advance(1);
    const paid = await send(message);
    expect(paid.body.data).toMatchObject({ outcome: "matched", trade_no: order.trade_no });
    expect(await statusOf(order.trade_no)).toBe(2);
    expect(await h.gw.store.rules.listUnparsed({})).toEqual([]);

    // Paid once: the same notification again is a duplicate of the paying report.
    expect((await send(message)).body.data.outcome).toBe("duplicate");
  });

  test("a removed rule stops paying", async () => {
    await addRule(h.gw, CLI_ACTOR, NEW_WORDING);
    const order = await createOrder(h, { pay_type: "wxpay", money: "13.22" });
    expect(await removeRule(h.gw, CLI_ACTOR, "wxpay-1")).toMatchObject({ name: "wxpay-1" });
    expect((await send(content("微信支付", "收款到账13.22元，来自张三"))).body.data.outcome).toBe("unmatched");
    expect(await statusOf(order.trade_no)).toBe(1);
  });

  test("the built-in formats come first; an operator rule never sees an over-long text", async () => {
    expect(await addRule(h.gw, CLI_ACTOR, { ...NEW_WORDING, text: `^收款到账${A}元，来自.*$` })).toMatchObject({ ok: true });
    const o1 = await createOrder(h, { pay_type: "wxpay", money: "13.22" });
    const builtIn = await send(content("微信支付", "个人收款码到账¥13.22"));
    expect(builtIn.body.data).toMatchObject({ outcome: "matched", trade_no: o1.trade_no });
    const o2 = await createOrder(h, { pay_type: "wxpay", money: "20.00" });
    const long = await send(content("微信支付", `收款到账${o2.trade_amount}元，来自${"张".repeat(250)}`));
    expect(long.body.data.outcome).toBe("unmatched");
    expect(await statusOf(o2.trade_no)).toBe(1);
    const short = await send(content("微信支付", `收款到账${o2.trade_amount}元，来自${"张".repeat(200)}`));
    expect(short.body.data).toMatchObject({ outcome: "matched", trade_no: o2.trade_no });
  });
});

describe("what is kept as unrecognised", () => {
  test("only payment-app notifications that mention an amount and no refund, red packet or payment out", async () => {
    await send(content("张三", "晚上吃什么")); // no amount
    await send(content("微信支付", "你收到一个红包 5.00元")); // not money received
    await send(content("微信支付", "退款到账¥3.00"));
    await send(content("短信", "您尾号1234的账户收入100.00元", "com.android.mms")); // not a payment app (no rule names it)
    expect(await h.gw.store.rules.listUnparsed({})).toEqual([]);
    await send(content("微信支付", "收款 ¥8.00 已到账"));
    await send(content("某某交流群", "[3条]张三: 收款码到账¥13.22")); // a chat that quotes a payment looks the same
    expect((await h.gw.store.rules.listUnparsed({})).map((m) => m.text)).toEqual(["[3条]张三: 收款码到账¥13.22", "收款 ¥8.00 已到账"]);
  });

  test("a package an operator rule names counts as a payment app", async () => {
    await addRule(h.gw, CLI_ACTOR, { pkg: "com.example.bank", titles: ["银行通知"], text: `^入账${A}元$`, payType: "alipay" });
    forgetOperatorRules(h.gw);
    await send(content("银行通知", "入账 100.00元，余额...", "com.example.bank"));
    expect((await h.gw.store.rules.listUnparsed({})).map((m) => m.pkg)).toEqual(["com.example.bank"]);
  });

  test("bounded: the oldest seen go first; a re-send is counted, not kept twice", async () => {
    const rules = h.gw.store.rules;
    const m = (i: number, now: number) => ({ pid: 1001, key: `k${i}`, pkg: "com.tencent.mm", title: "微信支付", text: `收款${i}元`, reason: "r", now });
    await rules.recordUnparsed(m(1, 100), { total: 3 });
    await rules.recordUnparsed(m(2, 101), { total: 3 });
    await rules.recordUnparsed(m(3, 102), { total: 3 });
    await rules.recordUnparsed(m(1, 103), { total: 3 }); // re-sent: now the most recent
    await rules.recordUnparsed(m(4, 104), { total: 3 }); // #2 is the oldest seen
    const kept = await rules.listUnparsed({});
    expect(kept.map((r) => [r.text, r.count])).toEqual([["收款4元", 1], ["收款1元", 2], ["收款3元", 1]]);
    expect((await rules.listUnparsed({ since: 103 })).map((r) => r.text)).toEqual(["收款4元", "收款1元"]);
  });
});

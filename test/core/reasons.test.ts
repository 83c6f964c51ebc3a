// Report reasons as codes (core/reasons.ts): for every code, the English the phones and the CLI
// read is the text the core wrote before codes existed (written out literally below, from the old
// templates), and the console words the same code in Chinese and English, amounts in yuan.
import { describe, expect, test } from "bun:test";
import { translator } from "../../src/admin/i18n/index.ts";
import { codedText, reportReason } from "../../src/admin/reason-codes.ts";
import { because, type Coded, english, noted, REASON_CODES, type ReasonArgs, type ReasonCode, readCoded } from "../../src/core/reasons.ts";
import { DUPLICATE } from "../../src/store/report-reasons.ts";

const claim = { amount: 6660, pay_type: "alipay", account: 3 };
const NO = "20261126000000001234";

/** code, args, the old English text, the console's Chinese. */
type Row<C extends ReasonCode = ReasonCode> = [C, ReasonArgs[C], string, string];
const ROWS: Row[] = [
  ["no_pending", { claim }, "no pending order matches amount 6660, pay_type alipay, account 3", "没有待支付订单匹配 ¥66.60 · 支付宝 · 账户 3"],
  ["no_account", { claim: { amount: 100, pay_type: "wxpay", channel_code: "qr" } }, "no account matches amount 100, pay_type wxpay, channel_code qr", "没有收款账户匹配 ¥1.00 · 微信支付 · 通道编码 qr"],
  ["several", { n: 2, claim: { amount: 123456, pay_type: "wxpay" }, orders: ["A1", "B2"] }, "2 pending orders match amount 123456, pay_type wxpay; nothing paid (A1, B2)", "2 个待支付订单都匹配 ¥1,234.56 · 微信支付；未入账（A1, B2）"],
  ["shared_other", { claim: { amount: 500, pay_type: "alipay", sub_account: "nine" } }, "the order for amount 500, pay_type alipay, sub_account nine belongs to another merchant (a shared account); nothing paid", "¥5.00 · 支付宝 · 账户 nine 的订单属于另一个商户（共享账户）；未入账"],
  ["other_account", { no: NO, claim }, `order ${NO} is not on an account matching amount 6660, pay_type alipay, account 3`, `订单 ${NO} 不在匹配 ¥66.60 · 支付宝 · 账户 3 的账户上`],
  ["other_merchant", {}, "the order belongs to another merchant; nothing paid", "订单属于另一个商户；未入账"],
  ["amount_differs", { amount: 1001, no: NO, expected: 1000 }, `amount 1001 differs from order ${NO} (1000)`, `金额 ¥10.01 与订单 ${NO} 的实付金额 ¥10.00 不同`],
  ["amount_differs", { amount: 1001, no: NO, expected: null }, `amount 1001 differs from order ${NO} (none)`, `金额 ¥10.01 与订单 ${NO} 的实付金额 — 不同`],
  ["pay_type_differs", { pay: "alipay", no: NO, expected: "wxpay" }, `pay_type alipay differs from order ${NO} (wxpay)`, `支付方式 支付宝 与订单 ${NO} 的 微信支付 不同`],
  ["already_paid", { no: NO }, `order ${NO} is already paid; nothing changed`, `订单 ${NO} 已支付；没有改动`],
  ["closed", { no: NO }, `order ${NO} is closed; nothing paid`, `订单 ${NO} 已关闭；未入账`],
  ["failed", { no: NO }, `order ${NO} failed at creation; nothing paid`, `订单 ${NO} 创建失败；未入账`],
  ["no_pay_type", { no: NO }, `order ${NO} has no pay type yet; nothing paid`, `订单 ${NO} 还没有选择支付方式；未入账`],
  ["timed_out", { no: NO, window: 7200 }, `order ${NO} timed out more than 7200 s ago; nothing paid`, `订单 ${NO} 超时已超过 2 小时；未入账`],
  ["timed_out", { no: NO, window: 600, notes: [{ field: "out_order_id", id: "A1", mine: true }] }, `out_order_id A1 names no order of this merchant; order ${NO} timed out more than 600 s ago; nothing paid`, `out_order_id A1 没有对应的订单；订单 ${NO} 超时已超过 10 分钟；未入账`],
  ["not_payable", { no: NO }, `order ${NO} is not payable`, `订单 ${NO} 不可支付`],
  ["order_not_found", {}, "order not found", "找不到订单"],
  ["names_several", { field: "order_id", id: "X", orders: ["A", "B"] }, "order_id X names several orders (A, B)", "order_id X 对应多个订单（A, B）"],
  ["ids_differ", {}, "order_id and out_order_id name different orders", "order_id 和 out_order_id 指向不同的订单"],
  ["paid", {}, "paid", "已入账"],
  ["paid", { notes: [{ field: "out_order_id", id: "A1", mine: true }], by_amount: true }, "paid (out_order_id A1 names no order of this merchant; matched by amount)", "已入账（out_order_id A1 没有对应的订单；按金额匹配）"],
  ["paid", { by: "alice" }, "paid (confirmed by alice)", "已入账（alice 手动确认）"],
  ["duplicate", {}, "duplicate of an earlier report", "与之前的上报重复"],
  ["online", { n: 2 }, "2 account(s) online", "2 个账户在线"],
  ["pay_closed", {}, "order is closed", "订单已关闭"],
  ["pay_failed", {}, "order creation failed", "订单创建失败"],
  ["pay_no_pay_type", {}, "order has no pay type yet", "订单还没有选择支付方式"],
  ["pay_timed_out", {}, "order timed out beyond the match window", "订单超时已超出匹配窗口"],
  ["not_payment", { why: { code: "rejected_wording", args: { w: "蚂蚁森林" } } }, 'not a payment message: rejected wording "蚂蚁森林"', "不是收款通知：含有排除措辞「蚂蚁森林」"],
  ["missing_package", {}, "missing package_name", "缺少 package_name"],
  ["unknown_package", { pkg: "com.example" }, "unknown package com.example", "未知的应用 com.example"],
  ["empty_text", {}, "empty notification text", "通知没有文字"],
  ["too_long", { title: 128, text: 256 }, "longer than a payment notification (title over 128 or text over 256 characters)", "比收款通知长（标题超过 128 字或正文超过 256 字）"],
  ["time_bound", { ms: 100, untried: 2, of: 3 }, "time bound: 100 ms spent on this message's rules, 2 of 3 not tried", "本条消息的规则已用时 100 毫秒，3 条规则中 2 条未尝试"],
  ["time_bound", { ms: 100 }, "time bound: 100 ms spent on this message's rules", "本条消息的规则已用时 100 毫秒"],
  ["no_amount_group", { rule: "operator:x" }, "rule operator:x has no amount group", "规则 operator:x 没有金额分组"],
  ["invalid_amount", { rule: "operator:x", text: "1.234" }, 'rule operator:x: invalid amount "1.234"', "规则 operator:x：金额「1.234」无效"],
  ["rejected_wording", { w: "红包" }, 'rejected wording "红包"', "含有排除措辞「红包」"],
  ["not_sender", {}, "payment text, but the title is not one of this app's payment senders (a chat or request from someone else)", "有收款措辞，但标题不是该应用的收款通知（他人的聊天或请求）"],
  ["wording_around", {}, "payment wording with other text around it (a chat, group, friend-request or forwarded message): only the whole notification of a payment sender pays", "收款措辞前后有其他文字（聊天、群、好友请求或转发的消息）：只有收款通知本身才算付款"],
  ["no_wording", {}, "no payment wording matched", "没有匹配的收款措辞"],
  ["unwatched_type", { client: "phone-1", pay_type: "wxpay" }, "V免签 client phone-1 watches no wxpay account; nothing paid", "V免签客户端 phone-1 没有监控微信支付账户；未入账"],
  ["confirm_paid", { no: NO }, `order ${NO} is already paid`, `订单 ${NO} 已支付`],
  ["confirm_no_account", { no: NO }, `order ${NO} has no receiving account (creation failed or no pay type chosen); nothing paid`, `订单 ${NO} 没有收款账户（创建失败或未选择支付方式）；未入账`],
  ["no_order", { no: NO }, `no order ${NO}`, `没有订单 ${NO}`],
  ["assigned", { no: NO, by: "alice", why: "账单; 核对过", reported: 6661, payable: 6660 }, `assigned to ${NO} by alice: 账单; 核对过; reported 6661 cents, order payable 6660 cents`, `alice 分配给订单 ${NO}：账单; 核对过；上报 ¥66.61，订单实付 ¥66.60`],
  ["assigned", { no: NO, by: "alice", why: "ok" }, `assigned to ${NO} by alice: ok`, `alice 分配给订单 ${NO}：ok`],
];

const zh = translator("zh");
const en = translator("en");

describe("every code", () => {
  test("has a row here", () => {
    expect(REASON_CODES.filter((c) => !ROWS.some((r) => r[0] === c))).toEqual([]);
  });

  test.each(ROWS.map((r) => [`${r[0]} ${JSON.stringify(r[1])}`, ...r] as const))("%s", (_, code, args, old, chinese) => {
    const c = { code, args } as Coded;
    expect(english(c)).toBe(old);
    expect(codedText(c, zh)).toBe(chinese);
    // The English page reads the same words as the old text mapping: no code leaks, amounts in yuan.
    const e = codedText(c, en);
    expect(e).not.toMatch(/\b(?:6660|6661|123456|1001)\b/);
    expect(e.length).toBeGreaterThan(0);
    // What the store keeps reads back to the same reason.
    const back = readCoded(code, JSON.stringify(args));
    expect(back && english(back)).toBe(old);
  });

  test("because and noted word the text once; the store's duplicate text is the code's", () => {
    const r = because("no_pending", { claim });
    expect(r).toEqual({ code: "no_pending", args: { claim }, text: "no pending order matches amount 6660, pay_type alipay, account 3" });
    expect(noted(r, [{ field: "order_id", id: "Z", mine: false }]).text).toBe("order_id Z names no order; no pending order matches amount 6660, pay_type alipay, account 3");
    expect(because("duplicate").text).toBe(DUPLICATE);
  });
});

describe("reading a stored row", () => {
  test("a row with a code is worded from it; without one (older rows), from its English text", () => {
    const row = { reason: "no pending order matches amount 6660, pay_type alipay, account 3", reasonCode: "no_pending", reasonArgs: JSON.stringify({ claim }) };
    expect(reportReason(row, zh)).toBe("没有待支付订单匹配 ¥66.60 · 支付宝 · 账户 3");
    expect(reportReason({ ...row, reasonCode: null, reasonArgs: null }, zh)).toBe("没有待支付订单匹配 ¥66.60 · 支付宝 · 账户 3");
    expect(reportReason({ reason: "not a payment message: no payment wording matched" }, zh)).toBe("不是收款通知：没有匹配的收款措辞");
  });

  test("an unknown code, broken JSON or parameters of another shape fall back to the text", () => {
    expect(readCoded("from_the_future", "{}")).toBeNull();
    expect(readCoded("no_pending", "{not json")).toBeNull();
    expect(reportReason({ reason: "paid", reasonCode: "from_the_future", reasonArgs: "{}" }, zh)).toBe("已入账");
    expect(reportReason({ reason: "order not found", reasonCode: "no_pending", reasonArgs: "{}" }, zh)).toBe("找不到订单");
  });
});

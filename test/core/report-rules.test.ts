import { describe, expect, test } from "bun:test";
import { LinearPattern } from "../../src/core/linear-pattern.ts";
import {
  MESSAGE_RULES,
  SHARED_REJECTS,
  matchPaymentMessage,
  parseForwardedContent,
  yuanTextToCents,
  type ForwardedMessage,
  type MessageRule,
} from "../../src/core/report-rules.ts";

const ALIPAY = "com.eg.android.AlipayGphone";
const WECHAT = "com.tencent.mm";
const QQ = "com.tencent.mobileqq";

// Shaped like SmsForwarder's app-notification webhook item.
function notice(package_name: string, title: string, msg: string): ForwardedMessage {
  const app_name = package_name === ALIPAY ? "支付宝" : package_name === WECHAT ? "微信" : "QQ";
  return {
    from: package_name,
    package_name,
    app_name,
    title,
    msg,
    receive_time: "2024-05-01 12:34:56",
    device_name: "Redmi Note 12",
  };
}

function expectPaid(m: ForwardedMessage, payType: string, amount: number, rule: string) {
  expect(matchPaymentMessage(m)).toEqual({ ok: true, payType: payType as never, amount, rule });
}

function expectRejected(m: ForwardedMessage, reasonPart?: string) {
  const r = matchPaymentMessage(m);
  expect(r.ok).toBe(false);
  if (!r.ok && reasonPart !== undefined) expect(r.reason).toContain(reasonPart);
}

describe("yuanTextToCents", () => {
  const good: [string, number][] = [
    ["0.01", 1],
    ["0.1", 10],
    ["0.10", 10],
    ["12", 1200],
    ["12.5", 1250],
    ["12.50", 1250],
    ["1,234.50", 123450],
    ["1,234.56", 123456],
    ["1,234,567.89", 123456789],
    ["1234.56", 123456],
    [" 8.88 ", 888],
    ["007.00", 700],
    ["99,999,999.99", 9999999999], // the largest amount an order can have (core/money.ts)
    // The classic float trap: 0.29 * 100 === 28.999999999999996, 1.15 * 100 === 114.99999999999999.
    ["0.29", 29],
    ["1.15", 115],
    ["19.99", 1999],
  ];
  for (const [text, cents] of good) {
    test(`"${text}" -> ${cents}`, () => expect(yuanTextToCents(text)).toBe(cents));
  }

  const bad = [
    "", " ", "0", "0.0", "0.00", "-1", "-0.01", "+1", "1.234", "12.", ".5", "1,23.45", "12,34",
    "1,2345", ",123", "1e3", "0x10", "abc", "1 000", "¥12", "12元", "1.2.3", "NaN", "Infinity",
    "12345678901234", "100,000,000.00", // above the order maximum: no order can match it
  ];
  for (const text of bad) {
    test(`rejects ${JSON.stringify(text)}`, () => expect(yuanTextToCents(text)).toBeNull());
  }
});

describe("parseForwardedContent", () => {
  test("parses an SmsForwarder item", () => {
    const item = notice(WECHAT, "微信支付", "微信支付收款0.01元(朋友到店)");
    expect(parseForwardedContent(JSON.stringify(item))).toEqual({ ok: true, message: item });
  });

  test("numbers become strings, null and unknown fields are dropped", () => {
    const r = parseForwardedContent(
      JSON.stringify({ package_name: QQ, title: "QQ钱包", msg: "成功收款0.02元", receive_time: 1714538096000, from: null, extra: { a: 1 } }),
    );
    expect(r).toEqual({
      ok: true,
      message: { package_name: QQ, title: "QQ钱包", msg: "成功收款0.02元", receive_time: "1714538096000" },
    });
  });

  const malformed: [string, string][] = [
    ["", "not valid JSON"],
    ["{", "not valid JSON"],
    ["{'title':'x'}", "not valid JSON"],
    ["undefined", "not valid JSON"],
    ["null", "JSON object"],
    ["[]", "JSON object"],
    ['[{"title":"收款码到账¥1"}]', "JSON object"],
    ["12.5", "JSON object"],
    ['"{\\"title\\":\\"x\\"}"', "JSON object"],
    ["true", "JSON object"],
    ['{"title":{"t":"x"}}', "field title must be a string"],
    ['{"msg":["收款到账1元"]}', "field msg must be a string"],
    ['{"package_name":true}', "field package_name must be a string"],
  ];
  for (const [content, reason] of malformed) {
    test(`rejects ${JSON.stringify(content)}`, () => {
      const r = parseForwardedContent(content);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toContain(reason);
    });
  }

  test("never throws on a non-string at runtime", () => {
    expect(parseForwardedContent(undefined as unknown as string).ok).toBe(false);
    expect(parseForwardedContent({} as unknown as string).ok).toBe(false);
  });
});

describe("Alipay wordings", () => {
  test("你已成功收款X元", () => {
    expectPaid(notice(ALIPAY, "你已成功收款0.01元", "立即查看今日收款金额>>"), "alipay", 1, "alipay.received");
    expectPaid(notice(ALIPAY, "收钱码收款", "你已成功收款12元，点击查看"), "alipay", 1200, "alipay.received");
    expectPaid(notice(ALIPAY, "", "您已成功收款1,234.56元"), "alipay", 123456, "alipay.received");
  });

  test("通过扫码向你付款X元", () => {
    expectPaid(notice(ALIPAY, "支付宝通知", "张三通过扫码向你付款0.01元"), "alipay", 1, "alipay.scan");
    expectPaid(notice(ALIPAY, "收款通知", "李*四通过扫码向你付款￥1,234.56元"), "alipay", 123456, "alipay.scan");
  });

  test("个人收款码到账¥X / 收款码到账X元", () => {
    expectPaid(notice(ALIPAY, "收款到账通知", "个人收款码到账¥12.00"), "alipay", 1200, "alipay.qrcode");
    expectPaid(notice(ALIPAY, "收款码到账12元", "点击查看详情"), "alipay", 1200, "alipay.qrcode");
    expectPaid(notice(ALIPAY, "", "经营码收款码到账 ￥0.01，今日第1笔"), "alipay", 1, "alipay.qrcode");
  });

  test("收款单到账X元", () => {
    expectPaid(notice(ALIPAY, "收款单到账", "收款单到账1,234.56元"), "alipay", 123456, "alipay.bill");
  });

  test("[店员消息]收款到账X元 / 店员通收款到账X元", () => {
    expectPaid(notice(ALIPAY, "支付宝", "[店员消息]收款到账0.01元"), "alipay", 1, "alipay.clerk");
    expectPaid(notice(ALIPAY, "店员通", "店员通收款到账12元"), "alipay", 1200, "alipay.clerk");
    expectPaid(notice(ALIPAY, "【店员消息】", "收款到账￥8.80元"), "alipay", 880, "alipay.clerk");
  });
});

describe("WeChat wordings", () => {
  test("微信支付收款X元", () => {
    expectPaid(notice(WECHAT, "微信支付", "微信支付收款0.01元(朋友到店)"), "wxpay", 1, "wxpay.received");
    expectPaid(notice(WECHAT, "微信支付", "微信支付收款1,234.56元"), "wxpay", 123456, "wxpay.received");
    expectPaid(notice(WECHAT, "微信收款助手", "微信支付收款12元(老顾客消费)\n今日第3笔收款，共计¥36.00"), "wxpay", 1200, "wxpay.received");
  });

  test("二维码赞赏到账X元", () => {
    expectPaid(notice(WECHAT, "微信支付", "二维码赞赏到账12元"), "wxpay", 1200, "wxpay.reward");
  });

  test("个人收款码到账¥X", () => {
    expectPaid(notice(WECHAT, "微信支付", "个人收款码到账¥12.00"), "wxpay", 1200, "wxpay.qrcode");
    expectPaid(notice(WECHAT, "微信支付", "个人收款码到账￥1,234.56"), "wxpay", 123456, "wxpay.qrcode");
  });

  test("[店员消息]收款到账X元", () => {
    expectPaid(notice(WECHAT, "微信收款商业版", "[店员消息]收款到账0.01元"), "wxpay", 1, "wxpay.clerk");
  });

  test("收款到账X元 from 微信收款助手", () => {
    expectPaid(notice(WECHAT, "微信收款助手", "收款到账0.01元"), "wxpay", 1, "wxpay.assistant");
    expectPaid(notice(WECHAT, "微信收款助手", "收款到账：¥12.50"), "wxpay", 1250, "wxpay.assistant");
  });
});

describe("QQ wordings", () => {
  test("QQ钱包 ... 收款X元", () => {
    expectPaid(notice(QQ, "QQ钱包", "QQ钱包 收款通知 你已成功收款1.00元"), "qqpay", 100, "qqpay.received");
    expectPaid(notice(QQ, "QQ钱包", "成功收款0.02元"), "qqpay", 2, "qqpay.received");
    expectPaid(notice(QQ, "QQ钱包", "收款通知：收款1,234.56元"), "qqpay", 123456, "qqpay.wallet");
  });
});

describe("must not match", () => {
  test("advertisements", () => {
    expectRejected(notice(ALIPAY, "支付宝", "支付宝送你0.5元红包"));
    expectRejected(notice(ALIPAY, "支付宝", "领取5元优惠券"));
    // Contains a real wording; the anchored title refuses it, the shared list names why.
    expectRejected(notice(ALIPAY, "收款码到账5元红包", "快来领取"), "rejected wording");
  });

  test("failures and refunds", () => {
    expectRejected(notice(WECHAT, "微信支付", "转账失败"));
    expectRejected(notice(ALIPAY, "付款失败", "张三通过扫码向你付款10.00元，付款失败"), "失败");
    expectRejected(notice(ALIPAY, "退款通知", "你已成功收款1.00元，该笔款项已退款"), "退款");
    expectRejected(notice(WECHAT, "微信支付", "微信支付收款12.00元已退回"), "退回");
  });

  test("amounts without 元/¥", () => {
    expectRejected(notice(ALIPAY, "支付宝", "你已成功收款12"), "no payment wording matched");
    expectRejected(notice(ALIPAY, "支付宝", "张三通过扫码向你付款0.01"), "no payment wording matched");
    expectRejected(notice(WECHAT, "微信支付", "微信支付收款12笔"), "no payment wording matched");
    expectRejected(notice(WECHAT, "微信收款助手", "收款到账3笔"), "no payment wording matched");
    expectRejected(notice(QQ, "QQ钱包", "成功收款1"), "no payment wording matched");
  });

  test("malformed amounts are not truncated into a smaller valid one", () => {
    expectRejected(notice(ALIPAY, "", "收款码到账¥12.345"), 'invalid amount "12.345"');
    // Refused by the anchored text; the explanation (an unanchored search, RE2 has no look-ahead to
    // stop at "1,234") reads the "5" as text around the wording.
    expectRejected(notice(ALIPAY, "", "收款码到账¥1,2345"), "payment wording with other text around it");
    // Was title "": WeChat Pay never posts without its title, so that case is now refused for the title.
    expectRejected(notice(WECHAT, "微信支付", "微信支付收款0.00元"), 'invalid amount "0.00"');
  });

  test("outgoing payments", () => {
    expectRejected(notice(ALIPAY, "支付宝", "你已成功付款10元"), "成功付款");
    expectRejected(notice(QQ, "QQ钱包", "QQ钱包 付款通知 你已成功付款10元 对方成功收款10元"), "成功付款");
    expectRejected(notice(WECHAT, "微信支付", "你向张三付款12.00元"), "向张三付款");
  });

  test("unknown or missing package", () => {
    expectRejected(notice("com.x", "", "你已成功收款1.00元"), "unknown package com.x");
    expectRejected({ title: "你已成功收款1.00元" }, "missing package_name");
  });

  test("wording of another app's package does not cross over", () => {
    expectRejected(notice(QQ, "", "微信支付收款1.00元"), "no payment wording matched");
    expectRejected(notice(WECHAT, "", "通过扫码向你付款1.00元"), "no payment wording matched");
  });

  test("empty text", () => {
    expectRejected(notice(ALIPAY, "", ""), "empty notification text");
    expectRejected({ package_name: WECHAT }, "empty notification text");
    expectRejected(notice(QQ, "  ", "\n"), "empty notification text");
  });

  test("收款助手 digests: the whole text is not a payment format", () => {
    expectRejected(notice(WECHAT, "微信收款助手", "昨日收款汇总：收款到账1,234.56元"), "other text around it");
  });
});

describe("table", () => {
  test("rows are distinct and each has exactly one amount group, in its title or its text", () => {
    const keys = MESSAGE_RULES.map((r) => `${r.pkg}\n${r.titles.join("|")}\n${r.titleWording?.source}\n${r.text.source}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const r of MESSAGE_RULES) expect([r.titleWording?.hasAmount === true, r.text.hasAmount].filter(Boolean).length).toBe(1);
    // A row's title is names, or the wording itself: never a pattern that merely names a sender.
    for (const r of MESSAGE_RULES) expect(r.titleWording === undefined ? r.titles.length > 0 : r.titles.length === 0 && r.titleWording.hasAmount).toBe(true);
    expect(SHARED_REJECTS.length).toBeGreaterThan(0);
  });

  test("custom rules extend matching, and a compiled pattern is safe to reuse", () => {
    const rules: MessageRule[] = [
      ...MESSAGE_RULES,
      { id: "alipay.merchant", pkg: "com.alipay.merchant", payType: "alipay", titles: ["商家服务"], text: LinearPattern.compile("商家到账(?<amount>[\\d.]+)元") },
    ];
    const m = notice("com.alipay.merchant", "商家服务", "商家到账3.30元");
    expect(matchPaymentMessage(m, rules)).toEqual({ ok: true, payType: "alipay", amount: 330, rule: "alipay.merchant" });
    expect(matchPaymentMessage(m, rules)).toEqual({ ok: true, payType: "alipay", amount: 330, rule: "alipay.merchant" });
    // The matcher anchors a caller's rule too: it cannot forget ^...$.
    expect(matchPaymentMessage(notice("com.alipay.merchant", "商家服务", "转发：商家到账3.30元"), rules).ok).toBe(false);
    expect(matchPaymentMessage(notice("com.alipay.merchant", "商家服务助手", "商家到账3.30元"), rules).ok).toBe(false);
    expectPaid(notice(ALIPAY, "", "收款码到账1元"), "alipay", 100, "alipay.qrcode");
    expect(matchPaymentMessage(notice(ALIPAY, "", "收款码到账1元"), [])).toMatchObject({ ok: false, reason: `unknown package ${ALIPAY}`, why: { code: "unknown_package", args: { pkg: ALIPAY } } });
  });
});

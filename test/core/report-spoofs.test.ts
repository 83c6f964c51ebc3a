// Issue 14, item 2: a notification pays only when its package, its title and its whole text are one
// payment format. The corpus (test/fixtures/notifications.ts) holds the genuine notices of every
// source and the chat, group, friend-request and forwarded spoofs that quote their wording.
import { describe, expect, test } from "bun:test";
import { matchPaymentMessage } from "../../src/core/report-rules.ts";
import { asForwarded, GENUINE, SPOOFS } from "../fixtures/notifications.ts";

describe("genuine payment notifications pay", () => {
  for (const n of GENUINE) {
    test(n.name, () => {
      expect(matchPaymentMessage(asForwarded(n))).toEqual({ ok: true, payType: n.payType, amount: 1322, rule: n.rule });
    });
  }
});

describe("spoofs that quote the wording never pay", () => {
  for (const n of SPOOFS) {
    test(n.name, () => {
      const r = matchPaymentMessage(asForwarded(n));
      expect(r.ok).toBe(false);
    });
  }
});

describe("the reason says why", () => {
  const reason = (pkg: string, title: string, text: string) => {
    const r = matchPaymentMessage(asForwarded({ name: "", pkg, title, text }));
    return r.ok ? "(paid)" : r.reason;
  };

  test("payment text under a title that is not a payment sender", () => {
    expect(reason("com.tencent.mm", "张三", "微信支付收款13.22元(朋友到店)")).toContain("title is not");
  });

  test("payment wording with other text around it", () => {
    expect(reason("com.tencent.mm", "微信支付", "[3条]张三: 个人收款码到账¥13.22")).toContain("other text around");
    expect(reason("com.eg.android.AlipayGphone", "收钱码收款", "你已成功收款13.22元 骗你的")).toContain("other text around");
  });

  test("no wording at all", () => {
    expect(reason("com.tencent.mm", "张三", "晚上吃什么")).toContain("no payment wording matched");
  });

  test("the reason never repeats the notification's own text", () => {
    const r = reason("com.tencent.mm", "微信支付<script>", "[3条]张三<b>: 个人收款码到账¥13.22");
    expect(r).not.toContain("<");
    expect(r).not.toContain("张三");
  });
});

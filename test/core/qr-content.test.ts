// Issue 31 item 9: a receiving account's QR content per pay type (core/qr-content.ts). The usual
// collection code of each app passes; another URL only when forced; not a URL never.
import { describe, expect, test } from "bun:test";
import { checkQrContent, QR_CONTENT_MAX } from "../../src/core/qr-content.ts";

const OK = { kind: "ok" };
const NOT_URL = { kind: "not_url" };
const unusual = (expected: string) => ({ kind: "unusual", expected });
const ALI = unusual("https://qr.alipay.com/...");
const WX = unusual("wxp://...");
const QQ = unusual("https://i.qianbao.qq.com/...");

const CASES: [string, string, unknown, unknown][] = [
  // pay type, content, verdict, verdict with force
  ["alipay", "https://qr.alipay.com/fkx0001", OK, OK],
  ["alipay", "HTTPS://QR.ALIPAY.COM/FKX0001ABCD", OK, OK], // Alipay prints its codes in capitals
  ["alipay", "https://Qr.Alipay.com/fkx0001?t=1", OK, OK],
  ["alipay", "http://qr.alipay.com/fkx0001", ALI, OK], // not https: an old or hand-typed code
  ["alipay", "https://qr.alipay.com/", ALI, OK], // no code after the host
  ["alipay", "https://render.alipay.com/p/s/i?id=1", ALI, OK], // another Alipay host
  ["alipay", "https://qr.alipay.com.evil.example/fkx", ALI, OK],
  ["alipay", "wxp://f2f0abc", ALI, OK], // the WeChat code on the Alipay account
  ["alipay", "not a url", NOT_URL, NOT_URL],
  ["alipay", "q", NOT_URL, NOT_URL],
  ["alipay", "qr.alipay.com/fkx0001", NOT_URL, NOT_URL], // no scheme
  ["alipay", "https://", NOT_URL, NOT_URL],
  ["alipay", "javascript:alert(1)", NOT_URL, NOT_URL],
  ["alipay", "data:text/html,<b>x</b>", NOT_URL, NOT_URL],
  ["alipay", "https://qr.alipay.com/fkx 0001", NOT_URL, NOT_URL],
  ["wxpay", "wxp://f2f0abcdefg", OK, OK],
  ["wxpay", "WXP://F2F0ABCDEFG", OK, OK],
  ["wxpay", "wxp://", NOT_URL, NOT_URL],
  ["wxpay", "wxp:f2f0", WX, OK],
  ["wxpay", "https://payapp.weixin.qq.com/qr/abc", WX, OK], // 经营码 / 赞赏码 links
  ["wxpay", "https://qr.alipay.com/fkx0001", WX, OK],
  ["qqpay", "https://i.qianbao.qq.com/wallet/sqrcode.htm?m=tenpay&a=1&u=1", OK, OK],
  ["qqpay", "HTTPS://I.QIANBAO.QQ.COM/wallet/sqrcode.htm?m=1", OK, OK],
  ["qqpay", "qq://q", QQ, OK],
  ["qqpay", "https://qq/a", QQ, OK],
  ["usdt", "https://example.com/pay", OK, OK], // a type xpay no longer knows: any URL
  ["usdt", "not a url", NOT_URL, NOT_URL],
];

describe("checkQrContent", () => {
  for (const [payType, text, plain, forced] of CASES) {
    test(`${payType} ${JSON.stringify(text)}`, () => {
      expect(checkQrContent(payType, text)).toEqual(plain as never);
      expect(checkQrContent(payType, text, true)).toEqual(forced as never);
    });
  }
  test("longer than the QR renderer draws: refused, forced or not", () => {
    const long = `https://qr.alipay.com/${"x".repeat(QR_CONTENT_MAX)}`;
    expect(checkQrContent("alipay", long, true)).toEqual({ kind: "too_long", max: QR_CONTENT_MAX });
  });
});

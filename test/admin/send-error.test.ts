// A notification attempt's error (core/notify/deliver.ts, target.ts) in the page's language: each
// shape the core writes or Bun's fetch throws has words in both languages; the rest stays as it is.
import { describe, expect, test } from "bun:test";
import { translator } from "../../src/admin/i18n/index.ts";
import { sendErrorText } from "../../src/admin/send-error.ts";

const zh = translator("zh");
const en = translator("en");

describe("notification errors in the page's words", () => {
  test("every shape the notifier writes", () => {
    const cases: [string, string, string][] = [
      ["ECONNREFUSED: Unable to connect. Is the computer able to access the url?", "连接被拒绝：商户服务器没有在该端口监听（ECONNREFUSED）", "Connection refused: nothing listens on the merchant's port (ECONNREFUSED)"],
      ["ECONNRESET: socket hang up", "连接被商户服务器中断（ECONNRESET）", "The merchant's server dropped the connection (ECONNRESET)"],
      ["UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to verify the first certificate", "HTTPS 证书或握手失败（UNABLE_TO_VERIFY_LEAF_SIGNATURE）", "HTTPS certificate or handshake failed (UNABLE_TO_VERIFY_LEAF_SIGNATURE)"],
      ["timed out after 10000 ms", "10,000 毫秒内没有应答（超时）", "No answer within 10,000 ms (timed out)"],
      ["HTTP 502", "商户返回 HTTP 502", "The merchant answered HTTP 502"],
      ["redirect (HTTP 302) not followed", "商户返回重定向（HTTP 302），不会跟随", "The merchant answered a redirect (HTTP 302), not followed"],
      ["response is not an acknowledgement", "商户已应答，但不是约定的确认（如 success）", "The merchant answered, but not with the agreed acknowledgement (such as success)"],
      ["cannot resolve shop.example: getaddrinfo ENOTFOUND", "无法解析域名 shop.example", "Cannot resolve shop.example"],
      ["notify_url 10.0.0.5, a private or reserved address (RFC 1918), refused by notify_block_private", "通知地址指向内网或保留地址，已拒绝发送", "The notify URL points to a private or reserved address; not sent"],
      ["order or merchant no longer exists", "订单或商户已不存在", "The order or the merchant no longer exists"],
    ];
    for (const [raw, z, e] of cases) expect([raw, sendErrorText(zh, raw), sendErrorText(en, raw)]).toEqual([raw, z, e]);
  });

  test("a text no rule knows is shown as it is, never dropped", () => {
    expect(sendErrorText(zh, "something new went wrong")).toBe("something new went wrong");
    expect(sendErrorText(zh, "")).toBe("");
  });
});

// DingTalk custom robot (钉钉自定义机器人, open.dingtalk.com "自定义机器人安全设置" and "自定义机器人
// 发送群消息"): POST https://oapi.dingtalk.com/robot/send?access_token=... with a JSON body,
// msgtype text ({text: {content}}) or markdown ({markdown: {title, text}}). In the 加签 (sign)
// security mode two more query parameters: `timestamp`, the time in milliseconds (within an hour
// of DingTalk's clock), and `sign` = urlEncode(base64(HmacSHA256(key = secret, message =
// timestamp + "\n" + secret))), UTF-8. Success is HTTP 200 with errcode 0; anything else fails.
// In the keyword mode every message starts with "[xpay]", so the keyword `xpay` lets them through.
import { createHmac } from "node:crypto";
import { BASE_URL_FIELD, baseOf, type ChannelKind, clipUtf8, JSON_HEADERS, jsonAnswer, markdownOf } from "./kind.ts";

/** The `sign` query value, before URL encoding. */
export function dingtalkSign(secret: string, timestampMs: number): string {
  return createHmac("sha256", secret).update(`${timestampMs}\n${secret}`, "utf8").digest("base64");
}

export const dingtalk: ChannelKind = {
  type: "dingtalk",
  label: "DingTalk robot",
  baseUrl: "https://oapi.dingtalk.com",
  fields: [
    { key: "access_token", help: "the robot's access_token (from its webhook URL; or give --webhook URL)", required: true, secret: true },
    { key: "secret", help: "the 加签 secret (SEC...), when the robot uses that security mode", secret: true },
    { key: "msgtype", help: "text (default) or markdown", values: ["text", "markdown"] },
    BASE_URL_FIELD,
  ],
  request(c, m, nowMs) {
    let url = `${baseOf(c, dingtalk.baseUrl!)}/robot/send?access_token=${encodeURIComponent(c.access_token!)}`;
    if (c.secret) url += `&timestamp=${nowMs}&sign=${encodeURIComponent(dingtalkSign(c.secret, nowMs))}`;
    const body =
      c.msgtype === "markdown"
        ? { msgtype: "markdown", markdown: { title: m.title.slice(0, 64), text: clipUtf8(markdownOf(m), 18000) } }
        : { msgtype: "text", text: { content: clipUtf8(m.text, 18000) } };
    return { method: "POST", url, headers: { ...JSON_HEADERS }, body: JSON.stringify(body) };
  },
  answer: (body) => jsonAnswer(body, (j) => (j.errcode === 0 ? { ok: true, error: "" } : { ok: false, error: `errcode ${String(j.errcode)}: ${String(j.errmsg ?? "")}` })),
};

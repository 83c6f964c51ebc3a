// WeCom group robot (企业微信群机器人, developer.work.weixin.qq.com "群机器人配置说明"): POST
// https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=<key> with {msgtype: "text", text:
// {content}} (at most 2048 bytes, UTF-8) or {msgtype: "markdown", markdown: {content}} (4096
// bytes). Success is errcode 0 (errmsg "ok"); a robot sends at most 20 messages a minute.
import { BASE_URL_FIELD, baseOf, type ChannelKind, clipUtf8, JSON_HEADERS, jsonAnswer, markdownOf } from "./kind.ts";

export const wecom: ChannelKind = {
  type: "wecom",
  label: "WeCom group robot",
  baseUrl: "https://qyapi.weixin.qq.com",
  fields: [
    { key: "key", help: "the robot's key (from its webhook URL; or give --webhook URL)", required: true, secret: true },
    { key: "msgtype", help: "text (default) or markdown", values: ["text", "markdown"] },
    BASE_URL_FIELD,
  ],
  request(c, m) {
    const body =
      c.msgtype === "markdown"
        ? { msgtype: "markdown", markdown: { content: clipUtf8(markdownOf(m), 4096) } }
        : { msgtype: "text", text: { content: clipUtf8(m.text, 2048) } };
    return { method: "POST", url: `${baseOf(c, wecom.baseUrl!)}/cgi-bin/webhook/send?key=${encodeURIComponent(c.key!)}`, headers: { ...JSON_HEADERS }, body: JSON.stringify(body) };
  },
  answer: (body) => jsonAnswer(body, (j) => (j.errcode === 0 ? { ok: true, error: "" } : { ok: false, error: `errcode ${String(j.errcode)}: ${String(j.errmsg ?? "")}` })),
};

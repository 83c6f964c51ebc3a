// Feishu / Lark custom bot (飞书自定义机器人, open.feishu.cn "自定义机器人使用指南"): POST
// https://open.feishu.cn/open-apis/bot/v2/hook/<hook id> (Lark: base URL
// https://open.larksuite.com) with {msg_type: "text", content: {text}}. In the signature mode
// (签名校验) the body also carries `timestamp`, the time in SECONDS as a string (within an hour),
// and `sign` = base64(HmacSHA256(key = timestamp + "\n" + secret, message = "")): the documented
// algorithm signs an EMPTY message with the joined string as the key. Success is code 0 (older
// answers: StatusCode 0); e.g. 19021 is a bad signature or a stale timestamp.
import { problem } from "../../problem.ts";
import { createHmac } from "node:crypto";
import { BASE_URL_FIELD, baseOf, type ChannelKind, clipUtf8, JSON_HEADERS, jsonAnswer } from "./kind.ts";

export function feishuSign(secret: string, timestampS: number): string {
  return createHmac("sha256", `${timestampS}\n${secret}`).update("").digest("base64");
}

export const feishu: ChannelKind = {
  type: "feishu",
  label: "Feishu/Lark bot",
  baseUrl: "https://open.feishu.cn",
  fields: [
    { key: "hook", help: "the hook id: the last part of the webhook URL (or give --webhook URL)", required: true, secret: true },
    { key: "secret", help: "the 签名校验 secret, when the bot uses that security mode", secret: true },
    BASE_URL_FIELD,
  ],
  check: (c) => (/^[A-Za-z0-9-]{8,128}$/.test(c.hook ?? "") ? null : problem("alert.feishu_hook", "--hook must be the id at the end of .../open-apis/bot/v2/hook/<id>")),
  request(c, m, nowMs) {
    const timestamp = Math.floor(nowMs / 1000);
    const signed = c.secret ? { timestamp: String(timestamp), sign: feishuSign(c.secret, timestamp) } : {};
    // The request body may be at most 20 KB.
    const body = { ...signed, msg_type: "text", content: { text: clipUtf8(m.text, 16000) } };
    return { method: "POST", url: `${baseOf(c, feishu.baseUrl!)}/open-apis/bot/v2/hook/${c.hook}`, headers: { ...JSON_HEADERS }, body: JSON.stringify(body) };
  },
  answer: (body) =>
    jsonAnswer(body, (j) => {
      const code = j.code ?? j.StatusCode;
      return code === 0 ? { ok: true, error: "" } : { ok: false, error: `code ${String(code)}: ${String(j.msg ?? j.StatusMessage ?? "")}` };
    }),
};

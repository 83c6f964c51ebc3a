// Server酱 (sct.ftqq.com; easychen/serverchan-sdk): POST https://sctapi.ftqq.com/<SENDKEY>.send
// with the form fields `title` (at most 32 characters) and `desp` (Markdown, at most 32 KB). A
// Server酱³ key (sctp<N>t...) goes to https://<N>.push.ft07.com/send/<SENDKEY>.send instead, as
// the official SDK picks it. The answer is JSON with `code`, 0 for success.
import { problem } from "../../problem.ts";
import type { AlertMessage } from "../types.ts";
import { BASE_URL_FIELD, type ChannelKind, clipUtf8, jsonAnswer, markdownOf } from "./kind.ts";

export function serverchanUrl(c: Record<string, string>): string {
  const key = c.sendkey!;
  const sc3 = /^sctp(\d+)t/.exec(key);
  if (c.base_url) return `${c.base_url.replace(/\/+$/, "")}/${sc3 ? "send/" : ""}${key}.send`;
  return sc3 ? `https://${sc3[1]}.push.ft07.com/send/${key}.send` : `https://sctapi.ftqq.com/${key}.send`;
}

export function serverchanForm(m: AlertMessage): string {
  const title = [...m.title].length > 32 ? `${[...m.title].slice(0, 31).join("")}…` : m.title;
  return new URLSearchParams({ title, desp: clipUtf8(markdownOf(m), 32000) }).toString();
}

export const serverchan: ChannelKind = {
  type: "serverchan",
  label: "Server酱",
  baseUrl: "https://sctapi.ftqq.com",
  fields: [
    { key: "sendkey", help: "your SendKey (SCT... or sctp...)", required: true, secret: true },
    BASE_URL_FIELD,
  ],
  check: (c) => (/^[A-Za-z0-9_-]{8,128}$/.test(c.sendkey ?? "") ? null : problem("alert.sendkey", "--sendkey must be the SendKey shown on sct.ftqq.com (letters and digits)")),
  request(c, m) {
    return { method: "POST", url: serverchanUrl(c), headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-8", "user-agent": "xpay-alert/1" }, body: serverchanForm(m) };
  },
  answer: (body) => jsonAnswer(body, (j) => (j.code === 0 ? { ok: true, error: "" } : { ok: false, error: `code ${String(j.code)}: ${String(j.message ?? "")}` })),
};

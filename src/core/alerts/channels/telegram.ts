// Telegram Bot API sendMessage (core.telegram.org/bots/api#sendmessage): POST
// https://api.telegram.org/bot<token>/sendMessage with chat_id and text (at most 4096 characters).
// Every answer is JSON with a Boolean `ok`; false carries a human-readable `description`.
// Plain text by default; parse_mode HTML escapes the text and sets the title in bold.
import { problem } from "../../problem.ts";
import type { AlertMessage } from "../types.ts";
import { BASE_URL_FIELD, baseOf, type ChannelKind, JSON_HEADERS, jsonAnswer } from "./kind.ts";

const MAX_CHARS = 4096;
const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function telegramText(m: AlertMessage, parseMode: string): string {
  const text = [...m.text].length > MAX_CHARS ? `${[...m.text].slice(0, MAX_CHARS - 2).join("")}\n…` : m.text;
  if (parseMode !== "HTML") return text;
  const [first, ...rest] = text.split("\n");
  // Escaping can lengthen it past the limit again; the title line is short, the rest is cut once more.
  return `<b>${escapeHtml(first!)}</b>\n${escapeHtml(rest.join("\n"))}`.slice(0, MAX_CHARS);
}

export const telegram: ChannelKind = {
  type: "telegram",
  label: "Telegram bot",
  baseUrl: "https://api.telegram.org",
  fields: [
    { key: "token", help: "bot token from @BotFather (123456:ABC...)", required: true, secret: true },
    { key: "chat_id", help: "chat to write to: a user, group (-100...) or @channel", required: true },
    { key: "parse_mode", help: "text (default, plain) or HTML", values: ["text", "HTML"] },
    BASE_URL_FIELD,
  ],
  check: (c) => (/^\d+:[A-Za-z0-9_-]{20,}$/.test(c.token ?? "") ? null : problem("alert.telegram_token", "--token must look like 123456789:AA... (the token @BotFather gave)")),
  request(c, m) {
    const body: Record<string, unknown> = { chat_id: c.chat_id, text: telegramText(m, c.parse_mode ?? "text"), disable_web_page_preview: true };
    if (c.parse_mode === "HTML") body.parse_mode = "HTML";
    return { method: "POST", url: `${baseOf(c, telegram.baseUrl!)}/bot${c.token}/sendMessage`, headers: { ...JSON_HEADERS }, body: JSON.stringify(body) };
  },
  answer: (body) => jsonAnswer(body, (j) => (j.ok === true ? { ok: true, error: "" } : { ok: false, error: `ok:false ${String(j.description ?? "")}`.trim() })),
};

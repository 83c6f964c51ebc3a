// Parsing of phone notifications forwarded by an SmsForwarder-style client
// (POST /api/report/{pid}, spec section F). Pure (it needs only core/money.ts and the table of
// core/payment-formats.ts) so the rules can be tested exhaustively and extended without touching
// the report handler.

import { parseYuan } from "./money.ts";
import { MESSAGE_RULES, type MessageRule, type PayType, SHARED_REJECTS } from "./payment-formats.ts";

export { MESSAGE_RULES, type MessageRule, type PayType, SHARED_REJECTS };

export interface ForwardedMessage {
  from?: string;
  package_name?: string;
  app_name?: string;
  title?: string;
  msg?: string;
  receive_time?: string;
  device_name?: string;
}

export type MessageParse =
  | { ok: true; payType: PayType; amount: number; rule: string }
  | { ok: false; reason: string };

/** Integer cents from a yuan amount such as "0.01", "12", "1,234.50"; null when invalid. Only the
 * thousands separators are this module's business; the amount rules are core/money.ts's. */
export function yuanTextToCents(text: string): number | null {
  const m = /^((?:\d{1,3}(?:,\d{3})+|\d+))(\.\d{1,2})?$/.exec(text.trim());
  if (!m || m[1] === undefined) return null;
  return parseYuan(m[1].replace(/,/g, "") + (m[2] ?? ""));
}

const FIELDS = ["from", "package_name", "app_name", "title", "msg", "receive_time", "device_name"] as const;

/** Parse the report's `content` JSON; never throws, since the body is attacker-controlled. */
export function parseForwardedContent(
  content: string,
): { ok: true; message: ForwardedMessage } | { ok: false; reason: string } {
  if (typeof content !== "string") return { ok: false, reason: "content must be a JSON string" };
  let raw: unknown;
  try {
    raw = JSON.parse(content);
  } catch {
    return { ok: false, reason: "content is not valid JSON" };
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    return { ok: false, reason: "content must be a JSON object" };
  }
  const obj = raw as Record<string, unknown>;
  const message: ForwardedMessage = {};
  for (const key of FIELDS) {
    const v = obj[key];
    if (v === undefined || v === null) continue;
    // Some forwarder builds send receive_time / from as numbers; those are harmless.
    if (typeof v === "string") message[key] = v;
    else if (typeof v === "number" && Number.isFinite(v)) message[key] = String(v);
    else return { ok: false, reason: `field ${key} must be a string` };
  }
  return { ok: true, message };
}

/**
 * A notification is a payment only when one row of the table (core/payment-formats.ts) matches its
 * package, its WHOLE title and its WHOLE text. Everything else of the same apps is not a payment;
 * the reason says which part failed, never repeating the notification's own text.
 */
export function matchPaymentMessage(
  m: ForwardedMessage,
  rules: MessageRule[] = MESSAGE_RULES,
  sharedRejects: RegExp[] = SHARED_REJECTS,
): MessageParse {
  const pkg = (m.package_name ?? "").trim();
  if (!pkg) return { ok: false, reason: "missing package_name" };
  const candidates = rules.filter((r) => r.pkg === pkg);
  if (candidates.length === 0) return { ok: false, reason: `unknown package ${pkg}` };

  // The title is compared as sent: "微信支付 " or "微信支付\u200b" is somebody's nickname. The text's
  // line breaks vary by forwarder and phone, so runs of white space count as one space.
  const title = m.title ?? "";
  const text = (m.msg ?? "").replace(/\s+/g, " ").trim();
  if (!title.trim() && !text) return { ok: false, reason: "empty notification text" };

  for (const r of candidates) {
    const t = pattern(r.title).whole.exec(title);
    if (!t) continue;
    const x = matchText(r, text, title);
    if (!x) continue;
    const amountText = x.groups?.amount ?? t.groups?.amount;
    if (amountText === undefined) return { ok: false, reason: `rule ${r.id} has no amount group` };
    const amount = yuanTextToCents(amountText);
    if (amount === null) return { ok: false, reason: `rule ${r.id}: invalid amount "${amountText}"` };
    return { ok: true, payType: r.payType, amount, rule: r.id };
  }
  return { ok: false, reason: whyNot(candidates, title, text, sharedRejects) };
}

function matchText(r: MessageRule, text: string, title: string): RegExpExecArray | null {
  const whole = pattern(r.text).whole;
  const direct = whole.exec(text);
  if (direct || !r.folded) return direct;
  const inner = unfold(text, title);
  return inner === null ? null : whole.exec(inner);
}

/** "[3条]微信支付: X" -> "X" when the folded sender is exactly the title; otherwise null. */
function unfold(text: string, title: string): string | null {
  const m = /^\[[1-9]\d{0,4}条\]/.exec(text);
  if (!m || !title) return null;
  const rest = text.slice(m[0].length);
  if (!rest.startsWith(title)) return null;
  const sep = /^[:：] ?/.exec(rest.slice(title.length));
  return sep ? rest.slice(title.length + sep[0].length) : null;
}

function whyNot(rules: MessageRule[], title: string, text: string, sharedRejects: RegExp[]): string {
  for (const re of sharedRejects) {
    const hit = pattern(re).inside.exec(`${title} ${text}`);
    if (hit) return `rejected wording "${hit[0]}"`;
  }
  // Only the pattern that carries the amount is the wording; the other part is a title list or a
  // fixed tail (which may be empty, and so is found in anything).
  const inText = rules.filter((r) => hasAmount(r.text));
  if (inText.some((r) => matchText(r, text, title))) {
    return "payment text, but the title is not one of this app's payment senders (a chat or request from someone else)";
  }
  if (rules.some((r) => (hasAmount(r.text) ? pattern(r.text).inside.test(text) : pattern(r.title).inside.test(title)))) {
    return "payment wording with other text around it (a chat, group, friend-request or forwarded message): only the whole notification of a payment sender pays";
  }
  return "no payment wording matched";
}

export const hasAmount = (re: RegExp) => re.source.includes("(?<amount>");

// Each pattern compiled once more: anchored (the rule) and unanchored (only to explain a refusal).
// /g and /y are dropped so a caller's pattern keeps no lastIndex between calls.
const compiled = new WeakMap<RegExp, { whole: RegExp; inside: RegExp }>();
function pattern(re: RegExp): { whole: RegExp; inside: RegExp } {
  let c = compiled.get(re);
  if (!c) {
    const flags = re.flags.replace(/[gy]/g, "");
    c = { whole: new RegExp(`^(?:${re.source})$`, flags), inside: new RegExp(re.source, flags) };
    compiled.set(re, c);
  }
  return c;
}

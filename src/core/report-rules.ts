// Parsing of phone notifications forwarded by an SmsForwarder-style client
// (POST /api/report/{pid}, spec section F). Pure (it needs only core/money.ts) so the rules
// can be tested exhaustively and extended without touching the report handler.

import { parseYuan } from "./money.ts";

export type PayType = "alipay" | "wxpay" | "qqpay";

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

export interface MessageRule {
  id: string;
  packages: string[];
  payType: PayType;
  /** First capture group is the amount in yuan, as written (may hold thousands commas). */
  pattern: RegExp;
  /** When this also matches the text, the rule does not apply (ads, summaries, ...). */
  reject?: RegExp;
}

const ALIPAY = "com.eg.android.AlipayGphone";
const WECHAT = "com.tencent.mm";
const QQ = "com.tencent.mobileqq";

// An amount only counts when it carries a currency mark: a leading ¥/￥ or a trailing 元.
// Bare numbers in notifications are usually counts, dates or order numbers, and a false
// positive marks somebody's order paid. The lookahead enforces that before capturing;
// the trailing guard stops "1,2345" or "12.345" from matching as a shorter prefix.
const MONEY =
  String.raw`[:：]?\s*(?=[¥￥]|[\d,.]+\s*元)[¥￥]?\s*((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)(?![\d,]|\.\d)`;
const CLERK = String.raw`[\[【]店员消息[\]】]`;

function rule(id: string, pkg: string, payType: PayType, wording: string, reject?: RegExp): MessageRule {
  return { id, packages: [pkg], payType, pattern: new RegExp(wording + MONEY), reject };
}

// Order matters only when two wordings of one package overlap: the more specific first.
export const MESSAGE_RULES: MessageRule[] = [
  rule("alipay.received", ALIPAY, "alipay", "[你您]已成功收款"),
  rule("alipay.scan", ALIPAY, "alipay", "通过扫码向[你您]付款"),
  rule("alipay.qrcode", ALIPAY, "alipay", "收款码到账"),
  rule("alipay.bill", ALIPAY, "alipay", "收款单到账"),
  rule("alipay.clerk", ALIPAY, "alipay", `(?:${CLERK}|店员通)\\s*收款到账`),
  rule("wxpay.received", WECHAT, "wxpay", "微信支付收款"),
  rule("wxpay.reward", WECHAT, "wxpay", "二维码赞赏到账"),
  rule("wxpay.qrcode", WECHAT, "wxpay", "收款码到账"),
  rule("wxpay.clerk", WECHAT, "wxpay", `${CLERK}\\s*收款到账`),
  // A bare "收款到账" is too generic to trust unless the 收款助手 account sent it;
  // its daily digests repeat old amounts and must not pay a pending order again.
  rule("wxpay.assistant", WECHAT, "wxpay", "微信收款助手[\\s\\S]{0,40}?收款到账", /汇总|日报|周报|月报/),
  rule("qqpay.received", QQ, "qqpay", "成功收款"),
  rule("qqpay.wallet", QQ, "qqpay", "QQ钱包[\\s\\S]{0,40}?收款"),
];

// Checked before any rule: wordings that can sit next to a real-looking amount but never
// mean money arrived (promotions, failures, refunds, money going out).
export const SHARED_REJECTS: RegExp[] = [
  /送你|红包|优惠券|代金券|领取|立减|奖励金/,
  /失败|退款|退回|撤销|已关闭/,
  /成功付款|付款成功|向(?![你您])[^\s，,。]{1,20}?付款/,
];

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

export function matchPaymentMessage(
  m: ForwardedMessage,
  rules: MessageRule[] = MESSAGE_RULES,
  sharedRejects: RegExp[] = SHARED_REJECTS,
): MessageParse {
  const pkg = (m.package_name ?? "").trim();
  if (!pkg) return { ok: false, reason: "missing package_name" };
  const candidates = rules.filter((r) => r.packages.includes(pkg));
  if (candidates.length === 0) return { ok: false, reason: `unknown package ${pkg}` };

  // Forwarders split one notification into title and body inconsistently, and wrap lines.
  const text = `${m.title ?? ""} ${m.msg ?? ""}`.replace(/\s+/g, " ").trim();
  if (!text) return { ok: false, reason: "empty notification text" };

  for (const re of sharedRejects) {
    const hit = exec(re, text);
    if (hit) return { ok: false, reason: `rejected wording "${hit[0]}"` };
  }

  let rejected: string | undefined;
  for (const r of candidates) {
    const hit = exec(r.pattern, text);
    if (!hit) continue;
    const veto = r.reject ? exec(r.reject, text) : null;
    if (veto) {
      rejected ??= `rule ${r.id} rejected wording "${veto[0]}"`;
      continue;
    }
    const amountText = hit[1] ?? "";
    const amount = yuanTextToCents(amountText);
    if (amount === null) return { ok: false, reason: `rule ${r.id}: invalid amount "${amountText}"` };
    return { ok: true, payType: r.payType, amount, rule: r.id };
  }
  return { ok: false, reason: rejected ?? "no payment wording matched" };
}

// Rules may be supplied by callers with /g or /y; reset so a previous call's lastIndex
// cannot make the same text miss.
function exec(re: RegExp, text: string): RegExpExecArray | null {
  re.lastIndex = 0;
  return re.exec(text);
}

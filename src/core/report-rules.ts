// Parsing of phone notifications forwarded by an SmsForwarder-style client
// (POST /api/report/{pid}, spec section F). Pure (it needs only core/money.ts and the table of
// core/payment-formats.ts) so the rules can be tested exhaustively and extended without touching
// the report handler.

import type { LinearPattern } from "./linear-pattern.ts";
import { parseYuan } from "./money.ts";
import { because, type Reason } from "./reasons.ts";
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

/** Not a payment: `reason` is the English text of `why` (core/reasons.ts), which the report stores. */
export type MessageParse =
  | { ok: true; payType: PayType; amount: number; rule: string }
  | { ok: false; reason: string; why: Reason };

const notPayment = (why: Reason): MessageParse => ({ ok: false, reason: why.text, why });

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

/** The longest title and text any rule (built-in or the operator's) is run on: a payment
 * notification is one short sentence; past these it is not one, and no pattern sees it. */
export const MESSAGE_LIMITS = { titleChars: 128, textChars: 256 };

/** Milliseconds one message may spend in all the rules together (the built-ins and the operator's):
 * a payment takes about 0.05 ms on the table, so the margin is for a paused or busy machine. */
export const MATCH_BUDGET_MS = 100;

/**
 * A deadline over all the rules one message meets. Each rule runs in time linear in the capped
 * text (linear-pattern.ts), so checking between rules bounds the whole at the budget plus one
 * rule's run, whatever the number or shape of the rules. The built-in table is not cut short (its
 * size is fixed: a few milliseconds at worst, so a genuine payment never fails for a busy moment);
 * its time counts against the budget the operator's rules then get (operator-rules.ts).
 */
export class Budget {
  private readonly until: number;
  /** Set once the deadline passed: the rules after it were not tried. */
  spent = false;
  constructor(readonly ms: number = MATCH_BUDGET_MS, private readonly now: () => number = () => performance.now()) {
    this.until = now() + ms;
  }
  /** True while there is time left; false (and spent) once there is none. */
  left(): boolean {
    if (!this.spent && this.now() > this.until) this.spent = true;
    return !this.spent;
  }
}

/** The title is one of the sender's names (compared as sent: "微信支付 " is a nickname), or, for a
 * built-in row whose title is the wording, matches it whole. */
function titleGroups(r: MessageRule, title: string): Record<string, string | undefined> | null {
  if (r.titleWording) return r.titleWording.wholeGroups(title);
  return r.titles.includes(title) ? {} : null;
}

/** True when the rule's sender posts under this title: the app's payment source spoke. */
export function fromSender(r: MessageRule, title: string): boolean {
  return r.titleWording ? r.titleWording.matchesWhole(title) : r.titles.includes(title);
}

/** "¥ 1,234.50元" -> "1,234.50": the amount group holds the currency mark the text carried. */
export const moneyText = (group: string) => group.replace(/^[¥￥] ?/, "").replace(/ ?元$/, "");

/**
 * A notification is a payment only when one row of the table (core/payment-formats.ts) matches its
 * package, its WHOLE title and its WHOLE text. Everything else of the same apps is not a payment;
 * the reason says which part failed, never repeating the notification's own text. With a
 * `budget`, a rule is tried only while time is left (one budget may span several calls).
 */
export function matchPaymentMessage(
  m: ForwardedMessage,
  rules: MessageRule[] = MESSAGE_RULES,
  sharedRejects: LinearPattern[] = SHARED_REJECTS,
  budget: Budget | null = null,
): MessageParse {
  const pkg = (m.package_name ?? "").trim();
  if (!pkg) return notPayment(because("missing_package"));
  const candidates = rules.filter((r) => r.pkg === pkg);
  if (candidates.length === 0) return notPayment(because("unknown_package", { pkg }));

  // The title is compared as sent: "微信支付 " or "微信支付\u200b" is somebody's nickname. The text's
  // line breaks vary by forwarder and phone, so runs of white space count as one space.
  const title = m.title ?? "";
  const text = (m.msg ?? "").replace(/\s+/g, " ").trim();
  if (!title.trim() && !text) return notPayment(because("empty_text"));
  if (title.length > MESSAGE_LIMITS.titleChars || text.length > MESSAGE_LIMITS.textChars) {
    return notPayment(because("too_long", { title: MESSAGE_LIMITS.titleChars, text: MESSAGE_LIMITS.textChars }));
  }

  for (const [i, r] of candidates.entries()) {
    if (budget && !budget.left()) return notPayment(because("time_bound", { ms: budget.ms, untried: candidates.length - i, of: candidates.length }));
    const t = titleGroups(r, title);
    if (!t) continue;
    const x = matchText(r, text, title);
    if (!x) continue;
    const group = x.amount ?? t.amount;
    if (group === undefined) return notPayment(because("no_amount_group", { rule: r.id }));
    const amountText = moneyText(group);
    const amount = yuanTextToCents(amountText);
    if (amount === null) return notPayment(because("invalid_amount", { rule: r.id, text: amountText }));
    return { ok: true, payType: r.payType, amount, rule: r.id };
  }
  if (budget && !budget.left()) return notPayment(because("time_bound", { ms: budget.ms }));
  return notPayment(whyNot(candidates, title, text, sharedRejects));
}

function matchText(r: MessageRule, text: string, title: string): Record<string, string | undefined> | null {
  const direct = r.text.wholeGroups(text);
  if (direct || !r.folded) return direct;
  const inner = unfold(text, title);
  return inner === null ? null : r.text.wholeGroups(inner);
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

function whyNot(rules: MessageRule[], title: string, text: string, sharedRejects: LinearPattern[]): Reason {
  for (const re of sharedRejects) {
    const hit = re.find(`${title} ${text}`);
    if (hit !== null) return because("rejected_wording", { w: hit });
  }
  // Only the pattern that carries the amount is the wording; the other part is a title list or a
  // fixed tail (which may be empty, and so is found in anything).
  const inText = rules.filter((r) => r.text.hasAmount);
  if (inText.some((r) => matchText(r, text, title))) return because("not_sender");
  if (rules.some((r) => (r.text.hasAmount ? r.text.test(text) : r.titleWording?.test(title) === true))) return because("wording_around");
  return because("no_wording");
}

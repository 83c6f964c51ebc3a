// The rule for a receiving account the operator adds or edits: refuse, at the moment it is typed,
// anything that would only break later (an account no order can fit, a QR code the payer cannot
// scan, a code a report cannot tell apart). `channel add`/`edit` and the console's account form
// run it (through core/account-actions.ts), inside the store's write transaction, on the account
// as it would be saved. A problem names its field and its figures, so the console can put it under
// the field in either language; channelProblemText() is the CLI's English line. Amounts are
// cents here; the CLI and the console read them from yuan.
import { MAX_CENTS, showYuan } from "./money.ts";
import { isKnownPayType, PAY_TYPES } from "./order-input.ts";
import { checkQrContent, usualQrContent } from "./qr-content.ts";
import type { ChannelFacts, ChannelFields, RemoveChannelResult } from "./store.ts";

/** The report API's channel_code limit: a longer code could never be reported. */
export const CODE_MAX = 64;
export const NAME_MAX = 128;
const AMOUNTS = [["minAmount", "--min"], ["maxAmount", "--max"], ["dayAmount", "--day"]] as const;


export type ChannelProblemCode =
  | "pay_type_unknown" | "code_empty" | "code_long" | "name_empty" | "name_long" | "qrcode_empty" | "qrcode_not_url" | "qrcode_long" | "qrcode_unusual" | "amount_bad"
  | "min_above_max" | "day_below_min" | "no_merchant" | "code_taken" | "owner_fixed";

export interface ChannelProblem {
  code: ChannelProblemCode;
  /** The field to correct. */
  field: keyof ChannelFields;
  /** The figures the message names (amounts in cents). */
  vars: Record<string, string | number>;
}

export interface ChannelCheckOptions {
  /** The operator confirmed a QR content that is a URL but not the pay type's usual form. */
  forceQr?: boolean;
}

const problem = (code: ChannelProblemCode, field: keyof ChannelFields, vars: Record<string, string | number> = {}): ChannelProblem => ({ code, field, vars });

export function channelProblem(next: ChannelFields, facts: ChannelFacts, o: ChannelCheckOptions = {}): ChannelProblem | null {
  const { current } = facts;
  // An existing account of a type xpay no longer knows stays editable; a new type must be known.
  if ((!current || current.payType !== next.payType) && !isKnownPayType(next.payType)) {
    return problem("pay_type_unknown", "payType", { got: next.payType.slice(0, 20) || "nothing", known: PAY_TYPES.join(", ") });
  }
  if (next.code === "") return problem("code_empty", "code");
  if ([...next.code].length > CODE_MAX) return problem("code_long", "code", { max: CODE_MAX });
  if (next.name === "") return problem("name_empty", "name");
  if ([...next.name].length > NAME_MAX) return problem("name_long", "name", { max: NAME_MAX });
  if (next.qrcode === "") return problem("qrcode_empty", "qrcode");
  for (const [field] of AMOUNTS) {
    const v = next[field];
    if (!Number.isSafeInteger(v) || v < 0 || v > MAX_CENTS) return problem("amount_bad", field, { max: MAX_CENTS });
  }
  const { minAmount: min, maxAmount: max, dayAmount: day } = next;
  if (max > 0 && min > max) return problem("min_above_max", "minAmount", { min, max });
  if (day > 0 && min > day) return problem("day_below_min", "dayAmount", { min, day });
  if (!facts.merchantExists) return problem("no_merchant", "pid", { pid: next.pid });
  // A merchant's reports narrow by code over its own accounts and the shared ones: the same code
  // twice among them (same pay type) could not tell the accounts apart.
  const clash = facts.sameCode.find((o) => o.pid === next.pid || o.pid === 0 || next.pid === 0);
  if (clash) return problem("code_taken", "code", { code: next.code, id: clash.id, pid: clash.pid, payType: clash.payType });
  // Orders and reports of the past name the account with its owner and pay type; rewriting them
  // would move that history to another merchant or method.
  if (current && facts.orders > 0 && (current.pid !== next.pid || current.payType !== next.payType)) {
    return problem("owner_fixed", current.pid !== next.pid ? "pid" : "payType", { id: current.id, orders: facts.orders });
  }
  // The QR content last, so a structural refusal comes first. Checked when the content or the pay
  // type it is read for changes: an account saved before this rule keeps it while others change.
  if (!current || current.qrcode !== next.qrcode || current.payType !== next.payType) {
    const qr = checkQrContent(next.payType, next.qrcode, o.forceQr);
    const got = next.qrcode.length > 60 ? `${next.qrcode.slice(0, 60)}...` : next.qrcode;
    if (qr.kind === "not_url") return problem("qrcode_not_url", "qrcode", { got, example: usualQrContent(next.payType) ?? "https://qr.alipay.com/...", payType: next.payType });
    if (qr.kind === "too_long") return problem("qrcode_long", "qrcode", { max: qr.max });
    if (qr.kind === "unusual") return problem("qrcode_unusual", "qrcode", { got, expected: qr.expected, payType: next.payType });
  }
  return null;
}

/** The CLI's line for a problem (its flags, amounts in yuan). */
export function channelProblemText(p: ChannelProblem): string {
  const v = p.vars;
  const flag = AMOUNTS.find(([f]) => f === p.field)?.[1] ?? "";
  switch (p.code) {
    case "pay_type_unknown": return `--pay-type must be one of: ${v.known} (got ${v.got})`;
    case "code_empty": return "--code must not be empty: monitoring clients report it as channel_code";
    case "code_long": return `--code must be at most ${v.max} characters (the report API's channel_code limit)`;
    case "name_empty": return "--name must not be empty";
    case "name_long": return `--name must be at most ${v.max} characters`;
    case "qrcode_empty": return "--qrcode must not be empty: it is what the payer scans (e.g. https://qr.alipay.com/...)";
    case "qrcode_not_url": return `--qrcode must be a URL such as ${v.example}: it is what the payer scans (got ${JSON.stringify(v.got)}; --force does not change this)`;
    case "qrcode_long": return `--qrcode must be at most ${v.max} characters (the gateway's QR image limit)`;
    case "qrcode_unusual": return `--qrcode for pay type ${v.payType} is usually ${v.expected} (got ${JSON.stringify(v.got)}); check it is the account's collection code, then add --force to save it anyway`;
    case "amount_bad": return `${flag} must be an amount from 0 to ${showYuan(Number(v.max))}`;
    case "min_above_max": return `--min ${showYuan(Number(v.min))} is above --max ${showYuan(Number(v.max))}: no order could fit`;
    case "day_below_min": return `--day ${showYuan(Number(v.day))} is below --min ${showYuan(Number(v.min))}: the account could never take an order`;
    case "no_merchant": return `no merchant with pid ${v.pid} (use --pid 0 for a shared account)`;
    case "code_taken": return `--code ${v.code} is taken by account ${v.id} (pid ${v.pid}, ${v.payType}): a report naming the code could not tell them apart; choose another code`;
    case "owner_fixed": return `account ${v.id} was used by ${v.orders} order(s): its --pid and --pay-type cannot change; add a new account and \`xpay channel disable ${v.id}\``;
  }
}

/** The rule as the store's unit takes it: the CLI's text, or null. */
export function checkChannel(next: ChannelFields, facts: ChannelFacts): string | null {
  const p = channelProblem(next, facts);
  return p ? channelProblemText(p) : null;
}

/** Why an account could not be removed, or null once it is gone. */
export function removeRefusal(id: number, r: RemoveChannelResult): string | null {
  if (r.kind === "not_found") return `no account with id ${id}`;
  if (r.kind === "used") return `account ${id} was used by ${r.orders} order(s) and cannot be removed; \`xpay channel disable ${id}\` stops new orders on it`;
  return null;
}

// The rule for a receiving account the operator adds or edits: refuse, at the moment it is typed,
// anything that would only break later (an account no order can fit, a QR code the payer cannot
// scan, a code a report cannot tell apart). `channel add` and `channel edit` both run it, inside
// the store's write transaction, on the account as it would be saved.
import type { Gateway } from "./gateway.ts";
import { formatYuan, MAX_CENTS } from "./money.ts";
import { isKnownPayType, PAY_TYPES } from "./order-input.ts";
import type { ChannelFacts, ChannelFields, RemoveChannelResult, SaveChannelResult } from "./store.ts";

/** The report API's channel_code limit: a longer code could never be reported. */
const CODE_MAX = 64;
const NAME_MAX = 128;
const AMOUNTS = [["minAmount", "--min"], ["maxAmount", "--max"], ["dayAmount", "--day"]] as const;

export const CENTS_HINT = "amounts are in cents: 1250 for 12.50 yuan";
const yuan = (cents: number) => `${cents} (${formatYuan(cents)} yuan)`;

export function checkChannel(next: ChannelFields, facts: ChannelFacts): string | null {
  const { current } = facts;
  // An existing account of a type xpay no longer knows stays editable; a new type must be known.
  if ((!current || current.payType !== next.payType) && !isKnownPayType(next.payType)) {
    return `--pay-type must be one of: ${PAY_TYPES.join(", ")} (got ${next.payType.slice(0, 20) || "nothing"})`;
  }
  if (next.code === "") return "--code must not be empty: monitoring clients report it as channel_code";
  if ([...next.code].length > CODE_MAX) return `--code must be at most ${CODE_MAX} characters (the report API's channel_code limit)`;
  if (next.name === "") return "--name must not be empty";
  if ([...next.name].length > NAME_MAX) return `--name must be at most ${NAME_MAX} characters`;
  if (next.qrcode === "") return "--qrcode must not be empty: it is what the payer scans (e.g. https://qr.alipay.com/...)";
  for (const [field, flag] of AMOUNTS) {
    const v = next[field];
    if (!Number.isSafeInteger(v) || v < 0 || v > MAX_CENTS) return `${flag} must be a whole number from 0 to ${MAX_CENTS}; ${CENTS_HINT}`;
  }
  const { minAmount: min, maxAmount: max, dayAmount: day } = next;
  if (max > 0 && min > max) return `--min ${yuan(min)} is above --max ${yuan(max)}: no order could fit; amounts are in cents`;
  if (day > 0 && min > day) return `--day ${yuan(day)} is below --min ${yuan(min)}: the account could never take an order; amounts are in cents`;
  if (!facts.merchantExists) return `no merchant with pid ${next.pid} (use --pid 0 for a shared account)`;
  // A merchant's reports narrow by code over its own accounts and the shared ones: the same code
  // twice among them (same pay type) could not tell the accounts apart.
  const clash = facts.sameCode.find((o) => o.pid === next.pid || o.pid === 0 || next.pid === 0);
  if (clash) {
    return `--code ${next.code} is taken by account ${clash.id} (pid ${clash.pid}, ${clash.payType}): a report naming the code could not tell them apart; choose another code`;
  }
  // Orders and reports of the past name the account with its owner and pay type; rewriting them
  // would move that history to another merchant or method.
  if (current && facts.orders > 0 && (current.pid !== next.pid || current.payType !== next.payType)) {
    return `account ${current.id} was used by ${facts.orders} order(s): its --pid and --pay-type cannot change; add a new account and \`xpay channel disable ${current.id}\``;
  }
  return null;
}

const trimmed = (v: string | undefined) => v?.trim();

/** Adds (id null) or edits an account through the one rule above; surrounding spaces are dropped. */
export function saveChannel(gw: Gateway, id: number | null, patch: Partial<ChannelFields>): Promise<SaveChannelResult> {
  const tidy = { ...patch, code: trimmed(patch.code), name: trimmed(patch.name), qrcode: trimmed(patch.qrcode), scheme: trimmed(patch.scheme) };
  return gw.store.saveChannel({ id, patch: tidy, now: gw.clock.now(), check: checkChannel });
}

export function removeChannel(gw: Gateway, id: number): Promise<RemoveChannelResult> {
  return gw.store.removeChannel(id);
}

/** Why an account could not be removed, or null once it is gone. */
export function removeRefusal(id: number, r: RemoveChannelResult): string | null {
  if (r.kind === "not_found") return `no account with id ${id}`;
  if (r.kind === "used") return `account ${id} was used by ${r.orders} order(s) and cannot be removed; \`xpay channel disable ${id}\` stops new orders on it`;
  return null;
}

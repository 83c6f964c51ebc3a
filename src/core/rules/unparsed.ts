// When Alipay or WeChat change their wording, phones keep forwarding and no rule recognises the
// payments any more. Such notifications are kept (bounded: the last UNPARSED_LIMITS.total, a
// re-send counted on its row) and counted, so the operator hears of it (the unparsed_messages
// alert counts fromSenders below) and can write a rule against the stored text
// (`xpay rules unparsed`, `xpay rules test`).
//
// Kept: a notification of a payment app (a package of the built-in table or of an operator rule)
// that mentions an amount with a currency mark and none of the words that say it is not money
// received (红包, 退款, 付款成功, ...). A chat that quotes a payment is kept too: it looks the same,
// and `rules test` shows the built-ins' reason beside it.
import type { Gateway } from "../gateway.ts";
import { LinearPattern } from "../linear-pattern.ts";
import { MESSAGE_RULES, type MessageRule, SHARED_REJECTS } from "../payment-formats.ts";
import { clipBytes } from "../refusals.ts";
import { type ForwardedMessage, fromSender } from "../report-rules.ts";
import { operatorRules } from "./operator-rules.ts";
import type { UnparsedMessage } from "./store.ts";

export const UNPARSED_LIMITS = { total: 500, titleBytes: 256, textBytes: 1024 };

const BUILT_IN_PACKAGES = new Set(MESSAGE_RULES.map((r) => r.pkg));
const MONEY = LinearPattern.of(String.raw`[¥￥]\s?\d|\d\s?元`);

/** Whether a notification no rule recognised looks like money received from a payment app. */
export function looksLikePayment(m: ForwardedMessage, packages: Set<string>): boolean {
  if (!packages.has((m.package_name ?? "").trim())) return false;
  const all = `${m.title ?? ""} ${m.msg ?? ""}`;
  return MONEY.test(all) && !SHARED_REJECTS.some((re) => re.test(all));
}

/** Keeps a notification no rule recognised when it looks like a payment; true when kept. */
export async function keepUnrecognised(gw: Gateway, pid: number, key: string, m: ForwardedMessage, reason: string): Promise<boolean> {
  const packages = new Set([...BUILT_IN_PACKAGES, ...(await operatorRules(gw)).map((r) => r.pkg)]);
  if (!looksLikePayment(m, packages)) return false;
  await gw.store.rules.recordUnparsed(
    {
      pid, key, pkg: clipBytes((m.package_name ?? "").trim(), 100), reason: clipBytes(reason, 200), now: gw.clock.now(),
      title: clipBytes(m.title ?? "", UNPARSED_LIMITS.titleBytes), text: clipBytes(m.msg ?? "", UNPARSED_LIMITS.textBytes),
    },
    UNPARSED_LIMITS,
  );
  return true;
}

/** True when a payment rule of that package (built-in or the operator's) names the title as its sender: the app's payment sender spoke. */
export function fromPaymentSender(pkg: string, title: string, rules: readonly MessageRule[]): boolean {
  return rules.some((r) => r.pkg === pkg && fromSender(r, title));
}

/**
 * The kept notifications whose title is a payment sender's own (微信支付, 支付宝, QQ钱包, an
 * operator rule's title), most recently seen first: what the unparsed_messages alert counts (per
 * merchant, the last hour) and `xpay rules unparsed --from-sender` lists. A chat that quotes a
 * payment is kept for `rules test` but is not this: people write "¥30" to each other all day.
 */
export async function fromSenders(gw: Gateway, f: { pid?: number; since?: number; limit?: number } = {}): Promise<UnparsedMessage[]> {
  const rules = [...MESSAGE_RULES, ...(await operatorRules(gw))];
  const kept = await gw.store.rules.listUnparsed({ pid: f.pid, since: f.since, limit: UNPARSED_LIMITS.total });
  return kept.filter((m) => fromPaymentSender(m.pkg, m.title, rules)).slice(0, f.limit ?? UNPARSED_LIMITS.total);
}

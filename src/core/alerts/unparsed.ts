// Which stored message reports are payment notifications that no rule recognised. The report API
// (protocols/report/message.ts) stores every forwarded notification that paid nothing as an
// unmatched report with no amount and the reason `not a payment message: ...`. Most of those are
// rightly ignored: another app, a chat, a red packet. The ones that matter come from a payment
// sender itself (the title is 微信支付, 支付宝, QQ钱包...: the senders of core/payment-formats.ts)
// and still matched no rule: when Alipay or WeChat change their wording, every payment reads like
// that, and the gateway silently stops recognising payments.
import { MESSAGE_RULES, type MessageRule } from "../payment-formats.ts";

const PREFIX = "not a payment message: ";

/** Sub-reasons that mean "recognised, and not a payment" or "not from a payment app at all". */
const IGNORED = [/^missing package_name/, /^unknown package /, /^empty notification text/, /^rejected wording /, /^payment text, but the title is not/];

const anchored = new WeakMap<RegExp, RegExp>();
function whole(re: RegExp): RegExp {
  let a = anchored.get(re);
  if (!a) anchored.set(re, (a = new RegExp(`^(?:${re.source})$`, re.flags.replace(/[gy]/g, ""))));
  return a;
}

/** The package and title of a stored message report, or null when its raw body cannot be read (cut, not JSON). */
export function messageHeader(raw: string): { pkg: string; title: string } | null {
  try {
    const params = JSON.parse(raw) as { content?: unknown };
    if (typeof params.content !== "string") return null;
    const c = JSON.parse(params.content) as { package_name?: unknown; title?: unknown };
    return { pkg: typeof c.package_name === "string" ? c.package_name.trim() : "", title: typeof c.title === "string" ? c.title : "" };
  } catch {
    return null;
  }
}

/** True when the title is one a payment rule of that package accepts: the app's payment sender spoke. */
export function fromPaymentSender(pkg: string, title: string, rules: MessageRule[] = MESSAGE_RULES): boolean {
  return rules.some((r) => r.pkg === pkg && whole(r.title).test(title));
}

/** Whether a stored, unpaid message report is a payment sender's notification that no rule read. */
export function isUnparsedPayment(r: { reason: string; raw: string }, rules: MessageRule[] = MESSAGE_RULES): boolean {
  if (!r.reason.startsWith(PREFIX)) return false;
  const why = r.reason.slice(PREFIX.length);
  if (IGNORED.some((re) => re.test(why))) return false;
  const head = messageHeader(r.raw);
  // A body too long to keep whole cannot be checked: counted, since missing a payment costs more.
  return head === null || fromPaymentSender(head.pkg, head.title, rules);
}

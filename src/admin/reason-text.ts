// A report reason stored as English text only, in the page's language: rows written before reasons
// had codes (migration 027; a row with a code is worded from it by reason-codes.ts). The console
// maps the known shapes of that text (what core/reasons.ts words) to its own words, amounts in yuan. A reason joins its parts with "; " (a note, the refusal,
// "nothing paid"); each part is mapped on its own, and a part no pattern knows is shown as it is,
// so an old row or a new wording never disappears.
import { duration, money } from "./format.ts";
import type { TextKey, Translate } from "./i18n/index.ts";
import { payTypeName } from "./pages/order-bits.tsx";

type Vars = Record<string, string | number>;
type Rule = [RegExp, TextKey, (m: RegExpExecArray, t: Translate) => Vars];

/** "amount 6660, pay_type alipay, account 3" -> "¥66.60 · 支付宝 · 账户 3". */
function claim(text: string, t: Translate): string {
  const parts: string[] = [];
  for (const piece of text.split(", ")) {
    const [k, ...rest] = piece.split(" ");
    const v = rest.join(" ");
    if (k === "amount" && /^\d+$/.test(v)) parts.push(money(Number(v)));
    else if (k === "pay_type") parts.push(payTypeName(t, v));
    else if (k === "account") parts.push(t("why.account", { id: v }));
    else if (k === "channel_code") parts.push(t("why.channel", { code: v }));
    else parts.push(piece);
  }
  return parts.join(" · ");
}

const cents = (v: string | undefined): string => (v && /^\d+$/.test(v) ? money(Number(v)) : "—");
const none = (): Vars => ({});

const RULES: Rule[] = [
  [/^no pending order matches (.+)$/, "why.no_pending", (m, t) => ({ claim: claim(m[1]!, t) })],
  [/^no account matches (.+)$/, "why.no_account", (m, t) => ({ claim: claim(m[1]!, t) })],
  [/^(\d+) pending orders match (.+)$/, "why.several", (m, t) => ({ n: Number(m[1]), claim: claim(m[2]!, t) })],
  [/^order (\S+) is not on an account matching (.+)$/, "why.other_account", (m, t) => ({ no: m[1]!, claim: claim(m[2]!, t) })],
  [/^the order for (.+) belongs to another merchant \(a shared account\)$/, "why.shared_other", (m, t) => ({ claim: claim(m[1]!, t) })],
  [/^the order belongs to another merchant$/, "why.other_merchant", none],
  [/^amount (\d+) differs from order (\S+) \((\d+|none)\)$/, "why.amount_differs", (m) => ({ amount: cents(m[1]), no: m[2]!, expected: cents(m[3]) })],
  [/^pay_type (\w+) differs from order (\S+) \((\w*)\)$/, "why.pay_type_differs", (m, t) => ({ pay: payTypeName(t, m[1]!), no: m[2]!, expected: payTypeName(t, m[3]!) })],
  [/^order (\S+) is already paid$/, "why.already_paid", (m) => ({ no: m[1]! })],
  [/^order (\S+) is closed$/, "why.closed", (m) => ({ no: m[1]! })],
  [/^order (\S+) failed at creation$/, "why.failed", (m) => ({ no: m[1]! })],
  [/^order (\S+) has no pay type yet$/, "why.no_pay_type", (m) => ({ no: m[1]! })],
  [/^order (\S+) timed out more than (\d+) s ago$/, "why.timed_out", (m, t) => ({ no: m[1]!, s: duration(Number(m[2]), t) })],
  [/^order (\S+) is not payable$/, "why.not_payable", (m) => ({ no: m[1]! })],
  [/^order not found$/, "why.order_not_found", none],
  [/^(order_id|out_order_id) (.+) names no order( of this merchant)?$/, "why.names_no_order", (m) => ({ field: m[1]!, id: m[2]! })],
  [/^(order_id|out_order_id) (.+) names several orders$/, "why.names_several", (m) => ({ field: m[1]!, id: m[2]! })],
  [/^order_id and out_order_id name different orders$/, "why.ids_differ", none],
  [/^matched by amount$/, "why.by_amount", none],
  [/^nothing paid$/, "why.nothing_paid", none],
  [/^nothing changed$/, "why.nothing_changed", none],
  [/^no payment wording matched$/, "why.no_wording", none],
  [/^rejected wording "(.*)"$/, "why.rejected_wording", (m) => ({ w: m[1]! })],
  [/^payment text, but the title is not one of this app's payment senders/, "why.not_sender", none],
  [/^payment wording with other text around it/, "why.wording_around", none],
  [/^unknown package (\S+)$/, "why.unknown_package", (m) => ({ p: m[1]! })],
  [/^empty notification text$/, "why.empty_text", none],
  [/^not stored: (\d+) unmatched reports of this signer are stored today already/, "why.not_stored", (m) => ({ n: Number(m[1]) })],
  [/^(\d+) account\(s\) online$/, "why.online", (m) => ({ n: Number(m[1]) })],
  [/^replayed timestamp$/, "why.replayed", none],
  [/^paid$/, "why.paid", none],
  [/^no pending order$/, "why.no_pending_short", none],
  [/^duplicate of an earlier report$/, "why.duplicate", none],
  [/^this request was accepted before \(its timestamp is used\)$/, "why.replayed", none],
  [/^nothing stored$/, "why.nothing_stored", none],
];

/** Reasons whose free text (an operator's words, a note in parentheses) may hold "; " themselves. */
const WHOLE: Rule[] = [
  [/^not a payment message: (.+)$/s, "why.not_payment", (m, t) => ({ why: parts(m[1]!, t) })],
  [/^paid \((.+)\)$/s, "why.paid_note", (m, t) => ({ note: parts(m[1]!, t) })],
  [/^assigned to (\S+) by ([^:]+): (.*?)(?:; reported (\d+) cents, order payable (\d+) cents)?$/s, "why.assigned", (m) => ({ no: m[1]!, actor: m[2]!, why: m[3]! })],
];

/** A stored report reason in the page's language; "" stays "". */
export function reasonText(reason: string, t: Translate): string {
  if (!reason) return "";
  for (const [re, key, vars] of WHOLE) {
    const m = re.exec(reason);
    if (m) {
      const head = t(key, vars(m, t));
      return m[4] !== undefined ? `${head}${t("why.sep")}${t("why.assigned_gap", { reported: cents(m[4]), payable: cents(m[5]) })}` : head;
    }
  }
  return parts(reason, t);
}

function parts(reason: string, t: Translate): string {
  return reason
    .split("; ")
    .map((part) => {
      for (const [re, key, vars] of RULES) {
        const m = re.exec(part);
        if (m) return t(key, vars(m, t));
      }
      return part;
    })
    .join(t("why.sep"));
}

// A report's reason in the page's language, from the code and parameters the core stored
// (core/reasons.ts): amounts in yuan, pay types by name, the window as a duration. Rows stored
// before codes existed (no reason_code) fall back to reading their English text (reason-text.ts).
import { type ClaimArgs, type Coded, type IdNote, type ReasonArgs, type ReasonCode, readCoded } from "../core/reasons.ts";
import { duration, money } from "./format.ts";
import type { Translate } from "./i18n/index.ts";
import { payTypeName } from "./pages/order-bits.tsx";
import { reasonText } from "./reason-text.ts";

/** What a stored report row holds of its reason. */
export interface StoredReason {
  reason: string;
  reasonCode?: string | null;
  reasonArgs?: string | null;
}

/** The report's reason for the page: from its code when it has one, else from its English text. */
export function reportReason(r: StoredReason, t: Translate): string {
  const c = readCoded(r.reasonCode, r.reasonArgs);
  if (!c) return reasonText(r.reason, t);
  try {
    return codedText(c, t);
  } catch {
    return reasonText(r.reason, t); // parameters of another shape (a newer version's): the English still reads
  }
}

function claimText(c: ClaimArgs, t: Translate): string {
  const parts = [money(c.amount), payTypeName(t, c.pay_type)];
  if (c.account !== undefined) parts.push(t("why.account", { id: c.account }));
  else if (c.sub_account) parts.push(t("why.account", { id: c.sub_account }));
  else if (c.channel_code) parts.push(t("why.channel", { code: c.channel_code }));
  return parts.join(" · ");
}

const noteText = (n: IdNote, t: Translate) => t("why.names_no_order", { field: n.field, id: n.id });
const cents = (v: number | null | undefined) => (typeof v === "number" ? money(v) : "—");

type Words = { [C in ReasonCode]: (a: ReasonArgs[C], t: Translate) => string | string[] };

/** Each code's words; a list is joined with the language's separator ("；" / "; "). */
const WORDS: Words = {
  no_pending: (a, t) => t("why.no_pending", { claim: claimText(a.claim, t) }),
  no_account: (a, t) => t("why.no_account", { claim: claimText(a.claim, t) }),
  several: (a, t) => [t("why.several", { n: a.n, claim: claimText(a.claim, t) }), t("why.nothing_paid") + t("why.orders", { list: a.orders.join(", ") })],
  shared_other: (a, t) => [t("why.shared_other", { claim: claimText(a.claim, t) }), t("why.nothing_paid")],
  other_account: (a, t) => t("why.other_account", { no: a.no, claim: claimText(a.claim, t) }),
  other_merchant: (_, t) => [t("why.other_merchant"), t("why.nothing_paid")],
  amount_differs: (a, t) => t("why.amount_differs", { amount: money(a.amount), no: a.no, expected: cents(a.expected) }),
  pay_type_differs: (a, t) => t("why.pay_type_differs", { pay: payTypeName(t, a.pay), no: a.no, expected: payTypeName(t, a.expected) }),
  already_paid: (a, t) => [t("why.already_paid", { no: a.no }), t("why.nothing_changed")],
  closed: (a, t) => [t("why.closed", { no: a.no }), t("why.nothing_paid")],
  failed: (a, t) => [t("why.failed", { no: a.no }), t("why.nothing_paid")],
  no_pay_type: (a, t) => [t("why.no_pay_type", { no: a.no }), t("why.nothing_paid")],
  timed_out: (a, t) => [t("why.timed_out", { no: a.no, s: duration(a.window, t) }), t("why.nothing_paid")],
  not_payable: (a, t) => t("why.not_payable", { no: a.no }),
  order_not_found: (_, t) => t("why.order_not_found"),
  names_several: (a, t) => t("why.names_several", { field: a.field, id: a.id }) + t("why.orders", { list: a.orders.join(", ") }),
  ids_differ: (_, t) => t("why.ids_differ"),
  paid: (a, t) => {
    const parts = [...(a.notes ?? []).map((n) => noteText(n, t)), ...(a.by_amount ? [t("why.by_amount")] : []), ...(a.by ? [t("why.confirmed_by", { by: a.by })] : [])];
    return parts.length ? t("why.paid_note", { note: parts.join(t("why.sep")) }) : t("why.paid");
  },
  duplicate: (_, t) => t("why.duplicate"),
  online: (a, t) => t("why.online", { n: a.n }),
  pay_closed: (_, t) => t("why.pay_closed"),
  pay_failed: (_, t) => t("why.pay_failed"),
  pay_no_pay_type: (_, t) => t("why.pay_no_pay_type"),
  pay_timed_out: (_, t) => t("why.pay_timed_out"),
  not_payment: (a, t) => t("why.not_payment", { why: codedText(a.why, t) }),
  missing_package: (_, t) => t("why.missing_package"),
  unknown_package: (a, t) => t("why.unknown_package", { p: a.pkg }),
  empty_text: (_, t) => t("why.empty_text"),
  too_long: (a, t) => t("why.too_long", { title: a.title, text: a.text }),
  time_bound: (a, t) => (a.of !== undefined ? t("why.time_bound_left", { ms: a.ms, untried: a.untried ?? 0, of: a.of }) : t("why.time_bound", { ms: a.ms })),
  no_amount_group: (a, t) => t("why.no_amount_group", { rule: a.rule }),
  invalid_amount: (a, t) => t("why.invalid_amount", { rule: a.rule, text: a.text }),
  rejected_wording: (a, t) => t("why.rejected_wording", { w: a.w }),
  not_sender: (_, t) => t("why.not_sender"),
  wording_around: (_, t) => t("why.wording_around"),
  no_wording: (_, t) => t("why.no_wording"),
  unwatched_type: (a, t) => [t("why.unwatched_type", { client: a.client, pay: payTypeName(t, a.pay_type) }), t("why.nothing_paid")],
  confirm_paid: (a, t) => t("why.confirm_paid", { no: a.no }),
  confirm_no_account: (a, t) => [t("why.confirm_no_account", { no: a.no }), t("why.nothing_paid")],
  no_order: (a, t) => t("why.no_order", { no: a.no }),
  assigned: (a, t) => {
    const head = t("why.assigned", { no: a.no, actor: a.by, why: a.why });
    return a.reported !== undefined ? [head, t("why.assigned_gap", { reported: cents(a.reported), payable: cents(a.payable) })] : head;
  },
};

/** A coded reason in the page's language; the ids that named nothing come first, as in English. */
export function codedText(c: Coded, t: Translate): string {
  const words = (WORDS[c.code] as (a: unknown, t: Translate) => string | string[])(c.args, t);
  const notes = c.code === "paid" ? [] : ((c.args as { notes?: IdNote[] }).notes ?? []).map((n) => noteText(n, t));
  return [...notes, ...(Array.isArray(words) ? words : [words])].join(t("why.sep"));
}

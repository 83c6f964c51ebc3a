// Why a report ended as it did, as a code with parameters (amounts in integer cents). The store
// keeps the code and its parameters (reports.reason_code, reason_args) beside the English text;
// the console words the code in the page's language (admin/reason-text.ts), while the report API,
// the V免签 app and the CLI answer the English text, derived here and only here, so the wire
// answers stay exactly what they were before codes existed.

/** What a report claimed, as matching describes it ("amount 6660, pay_type alipay, account 3"). */
export interface ClaimArgs {
  amount: number;
  pay_type: string;
  account?: number;
  sub_account?: string;
  channel_code?: string;
}

/** order_id / out_order_id that named no order; matching went on by amount. `mine`: "of this merchant". */
export interface IdNote {
  field: "order_id" | "out_order_id";
  id: string;
  mine: boolean;
}

type Notes = { notes?: IdNote[] };
type No = { no: string } & Notes;

/** Every code and its parameters. A new reason is a new line here and one in EN below. */
export interface ReasonArgs {
  no_pending: { claim: ClaimArgs } & Notes;
  no_account: { claim: ClaimArgs } & Notes;
  several: { n: number; claim: ClaimArgs; orders: string[] } & Notes;
  shared_other: { claim: ClaimArgs } & Notes;
  other_account: { no: string; claim: ClaimArgs };
  other_merchant: Record<string, never>;
  amount_differs: { amount: number; no: string; expected: number | null };
  pay_type_differs: { pay: string; no: string; expected: string };
  already_paid: No;
  closed: No;
  failed: No;
  no_pay_type: No;
  timed_out: { no: string; window: number } & Notes;
  not_payable: No;
  order_not_found: Record<string, never>;
  names_several: { field: IdNote["field"]; id: string; orders: string[] };
  ids_differ: Record<string, never>;
  /** `by`: the operator who confirmed a payment by hand. */
  paid: { notes?: IdNote[]; by_amount?: boolean; by?: string };
  duplicate: Record<string, never>;
  online: { n: number };
  /** The pay unit refused after matching (a race the same transaction rules out in practice). */
  pay_closed: Record<string, never>;
  pay_failed: Record<string, never>;
  pay_no_pay_type: Record<string, never>;
  pay_timed_out: Record<string, never>;
  /** A forwarded notification that is not a payment; `why` is one of the message codes below. */
  not_payment: { why: Coded };
  missing_package: Record<string, never>;
  unknown_package: { pkg: string };
  empty_text: Record<string, never>;
  too_long: { title: number; text: number };
  time_bound: { ms: number; untried?: number; of?: number };
  no_amount_group: { rule: string };
  invalid_amount: { rule: string; text: string };
  rejected_wording: { w: string };
  not_sender: Record<string, never>;
  wording_around: Record<string, never>;
  no_wording: Record<string, never>;
  /** A V免签 push of a pay type the client watches no account of. */
  unwatched_type: { client: string; pay_type: string };
  /** A confirmation by hand that found the order no longer payable (core/manual-payment.ts). */
  confirm_paid: { no: string };
  confirm_no_account: { no: string };
  no_order: { no: string };
  /** An operator assigned an unmatched report; amounts in cents when they differ. */
  assigned: { no: string; by: string; why: string; reported?: number | null; payable?: number | null };
}

export type ReasonCode = keyof ReasonArgs;

/** What the store keeps: the code and its parameters. */
export interface Coded<C extends ReasonCode = ReasonCode> {
  code: C;
  args: ReasonArgs[C];
}

/** A reason with its English text (the wire's and the CLI's words). */
export type Reason = Coded & { text: string };

const claimText = (c: ClaimArgs): string => {
  const parts = [`amount ${c.amount}`, `pay_type ${c.pay_type}`];
  if (c.account !== undefined) parts.push(`account ${c.account}`);
  else if (c.sub_account) parts.push(`sub_account ${c.sub_account}`);
  else if (c.channel_code) parts.push(`channel_code ${c.channel_code}`);
  return parts.join(", ");
};

export const noteText = (n: IdNote): string => `${n.field} ${n.id} names no order${n.mine ? " of this merchant" : ""}`;
const orders = (list: string[]): string => ` (${list.join(", ")})`;

const EN: { [C in ReasonCode]: (a: ReasonArgs[C]) => string } = {
  no_pending: (a) => `no pending order matches ${claimText(a.claim)}`,
  no_account: (a) => `no account matches ${claimText(a.claim)}`,
  several: (a) => `${a.n} pending orders match ${claimText(a.claim)}; nothing paid${orders(a.orders)}`,
  shared_other: (a) => `the order for ${claimText(a.claim)} belongs to another merchant (a shared account); nothing paid`,
  other_account: (a) => `order ${a.no} is not on an account matching ${claimText(a.claim)}`,
  other_merchant: () => "the order belongs to another merchant; nothing paid",
  amount_differs: (a) => `amount ${a.amount} differs from order ${a.no} (${a.expected ?? "none"})`,
  pay_type_differs: (a) => `pay_type ${a.pay} differs from order ${a.no} (${a.expected})`,
  already_paid: (a) => `order ${a.no} is already paid; nothing changed`,
  closed: (a) => `order ${a.no} is closed; nothing paid`,
  failed: (a) => `order ${a.no} failed at creation; nothing paid`,
  no_pay_type: (a) => `order ${a.no} has no pay type yet; nothing paid`,
  timed_out: (a) => `order ${a.no} timed out more than ${a.window} s ago; nothing paid`,
  not_payable: (a) => `order ${a.no} is not payable`,
  order_not_found: () => "order not found",
  names_several: (a) => `${a.field} ${a.id} names several orders${orders(a.orders)}`,
  ids_differ: () => "order_id and out_order_id name different orders",
  paid: (a) => {
    const parts = [...(a.notes ?? []).map(noteText), ...(a.by_amount ? ["matched by amount"] : []), ...(a.by ? [`confirmed by ${a.by}`] : [])];
    return parts.length ? `paid (${parts.join("; ")})` : "paid";
  },
  duplicate: () => "duplicate of an earlier report",
  online: (a) => `${a.n} account(s) online`,
  pay_closed: () => "order is closed",
  pay_failed: () => "order creation failed",
  pay_no_pay_type: () => "order has no pay type yet",
  pay_timed_out: () => "order timed out beyond the match window",
  not_payment: (a) => `not a payment message: ${english(a.why)}`,
  missing_package: () => "missing package_name",
  unknown_package: (a) => `unknown package ${a.pkg}`,
  empty_text: () => "empty notification text",
  too_long: (a) => `longer than a payment notification (title over ${a.title} or text over ${a.text} characters)`,
  time_bound: (a) => `time bound: ${a.ms} ms spent on this message's rules${a.of !== undefined ? `, ${a.untried} of ${a.of} not tried` : ""}`,
  no_amount_group: (a) => `rule ${a.rule} has no amount group`,
  invalid_amount: (a) => `rule ${a.rule}: invalid amount "${a.text}"`,
  rejected_wording: (a) => `rejected wording "${a.w}"`,
  not_sender: () => "payment text, but the title is not one of this app's payment senders (a chat or request from someone else)",
  wording_around: () =>
    "payment wording with other text around it (a chat, group, friend-request or forwarded message): only the whole notification of a payment sender pays",
  no_wording: () => "no payment wording matched",
  unwatched_type: (a) => `V免签 client ${a.client} watches no ${a.pay_type} account; nothing paid`,
  confirm_paid: (a) => `order ${a.no} is already paid`,
  confirm_no_account: (a) => `order ${a.no} has no receiving account (creation failed or no pay type chosen); nothing paid`,
  no_order: (a) => `no order ${a.no}`,
  assigned: (a) => {
    const differs = a.reported !== undefined ? `; reported ${a.reported} cents, order payable ${a.payable} cents` : "";
    return `assigned to ${a.no} by ${a.by}: ${a.why}${differs}`;
  },
};

/** Codes whose notes (ids that named nothing) come before the reason, joined by "; ". */
function withNotes(c: Coded, base: string): string {
  const notes = (c.args as Notes).notes;
  return c.code !== "paid" && notes?.length ? `${notes.map(noteText).join("; ")}; ${base}` : base;
}

/** The English text of a code: the one place it is worded. */
export function english(c: Coded): string {
  const word = EN[c.code] as (a: unknown) => string;
  return withNotes(c, word(c.args));
}

/** A reason from its code and parameters, with its English text. */
export function because<C extends ReasonCode>(code: C, ...args: ReasonArgs[C] extends Record<string, never> ? [] : [ReasonArgs[C]]): Reason {
  const c = { code, args: (args[0] ?? {}) as ReasonArgs[C] } as Coded;
  return { ...c, text: english(c) };
}

/** The same reason with the ids that named nothing in front of it (matching went on by amount). */
export function noted(r: Reason, notes: IdNote[]): Reason {
  if (notes.length === 0) return r;
  const c = { code: r.code, args: { ...r.args, notes } } as Coded;
  return { ...c, text: english(c) };
}

/** Just the stored part: what reason_code / reason_args hold. */
export const coded = (r: Reason): Coded => ({ code: r.code, args: r.args });

/** A report record's reason fields (core/store.ts ReportRecord) from a coded reason. */
export const reasonFields = (r: Reason): { reason: string; reasonCode: string; reasonArgs: string } => ({
  reason: r.text,
  reasonCode: r.code,
  reasonArgs: JSON.stringify(r.args),
});

/** A stored code read back; null when the row has none (written before codes) or one this version does not know. */
export function readCoded(code: string | null | undefined, args: string | null | undefined): Coded | null {
  if (!code || !(code in EN)) return null;
  try {
    const parsed: unknown = args ? JSON.parse(args) : {};
    return parsed !== null && typeof parsed === "object" ? ({ code, args: parsed } as Coded) : null;
  } catch {
    return null;
  }
}

export const REASON_CODES = Object.keys(EN) as ReasonCode[];

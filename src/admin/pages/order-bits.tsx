/** @jsxImportSource @kitajs/html */
// Small pieces the orders and reports pages share: status and outcome badges, money in yuan, a
// millisecond time, pay type names, and the words for an action's refusal. Everything printed is
// escaped (`safe`).
import { REPORT_KINDS } from "../../core/browse/report-query.ts";
import type { ActionRefusalCode } from "../../core/order-actions.ts";
import { money } from "../format.ts";
import { effectiveStatus } from "../../core/order-state.ts";
import type { StoredReport } from "../../core/store.ts";
import { formatLocal } from "../../core/time.ts";
import type { Order } from "../../core/types.ts";
import type { TextKey, Translate } from "../i18n/index.ts";

type T = Translate;

const STATUS_TAG: Record<number, string> = { 1: "tag-accent", 2: "tag-ok", 3: "", 4: "tag-warn", 5: "tag-danger" };

export function StatusBadge(p: { order: Pick<Order, "status" | "expireTime">; now: number; t: T }) {
  const s = effectiveStatus(p.order, p.now);
  return <span class={`tag ${STATUS_TAG[s] ?? ""}`.trim()} data-status={String(s)} safe>{p.t(`orders.status_${s}` as TextKey)}</span>;
}

const OUTCOME_TAG: Record<StoredReport["outcome"], string> = { matched: "tag-ok", unmatched: "tag-warn", duplicate: "", rejected: "tag-danger", accepted: "" };

export function OutcomeBadge(p: { outcome: StoredReport["outcome"]; t: T }) {
  return <span class={`tag ${OUTCOME_TAG[p.outcome] ?? ""}`.trim()} data-outcome={p.outcome} safe>{p.t(`reports.outcome_${p.outcome}` as TextKey)}</span>;
}

export const kindName = (t: T, kind: string): string => (REPORT_KINDS as readonly string[]).includes(kind) ? t(`reports.kind_${kind}` as TextKey) : kind;

export function payTypeName(t: T, payType: string): string {
  if (payType === "") return t("orders.pay_none");
  return ["alipay", "wxpay", "qqpay"].includes(payType) ? t(`orders.pay_${payType}` as TextKey) : payType;
}

/** "¥1,009.98"; an em dash for no amount (format.ts money, the console's one amount format). */
export const yuan = money;

/** A time stored in milliseconds (notifications), shown like <Time> in the operator's zone. */
export function TimeMs(p: { ms: number | null; tz: string }) {
  if (!p.ms) return <span class="faint">—</span>;
  const full = formatLocal(p.ms, p.tz);
  return <time datetime={new Date(p.ms).toISOString()} title={full} safe>{full.slice(0, 19)}</time>;
}

/** Every refusal code has its text (tsc checks the map is complete). */
const REFUSALS: Record<ActionRefusalCode, TextKey> = {
  no_order: "orders.r_no_order", no_report: "orders.r_no_report", no_notification: "orders.r_no_notification",
  not_pending: "orders.r_not_pending", changed: "orders.r_changed", reason_missing: "orders.r_reason_missing",
  reason_too_long: "orders.r_reason_too_long", paid: "orders.r_paid", closed: "orders.r_closed", no_account: "orders.r_no_account",
  not_unmatched: "orders.r_not_unmatched", not_payment: "orders.r_not_payment", other_merchant: "orders.r_other_merchant",
  created_after: "orders.r_created_after", ended_before: "orders.r_ended_before",
};

/** An action's refusal in the console's words (the CLI prints the core's English message). */
export function refusalText(t: T, code: ActionRefusalCode): string {
  return t(REFUSALS[code]);
}

/** An order number as it appears in a link path: anything else is no order (404). */
export const TRADE_NO_PARAM = /^[0-9A-Za-z_-]{1,64}$/;

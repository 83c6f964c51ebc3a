// Small formatters of the dashboard: shares, ages, pay type names, the labels the stats core
// gives in English. Plain text only; the templates escape what they print.
import type { Translate } from "../i18n/index.ts";
import type { TextKey } from "../i18n/index.ts";

/** "45.0%"; "—" when nothing was created (no ratio). */
export const percent = (ratio: number | null): string => (ratio === null ? "—" : `${(ratio * 100).toFixed(1)}%`);

/** "35 秒前", "3 分钟前", ... rounded down; "从未" for a client never seen. */
export function ago(seconds: number | null, t: Translate): string {
  if (seconds === null) return t("dashboard.never");
  if (seconds < 60) return t("dashboard.ago_s", { n: seconds });
  if (seconds < 3600) return t("dashboard.ago_m", { n: Math.floor(seconds / 60) });
  if (seconds < 86400) return t("dashboard.ago_h", { n: Math.floor(seconds / 3600) });
  return t("dashboard.ago_d", { n: Math.floor(seconds / 86400) });
}

const PAY_TYPES: Record<string, TextKey> = { alipay: "dashboard.pt.alipay", wxpay: "dashboard.pt.wxpay", qqpay: "dashboard.pt.qqpay" };

/** 支付宝 for alipay; an unknown pay type as it is; "(not chosen)" for an order whose payer has not picked. */
export function payTypeName(key: string, t: Translate): string {
  if (key === "") return t("dashboard.pt.none");
  const k = PAY_TYPES[key];
  return k ? t(k) : key;
}

const KINDS: Record<string, TextKey> = {
  phone: "dashboard.kind.phone",
  "third-account": "dashboard.kind.third-account",
  vmq: "dashboard.kind.vmq",
  smsforwarder: "dashboard.kind.smsforwarder",
  report: "dashboard.kind.report",
};

export function clientKind(kind: string, t: Translate): string {
  const k = KINDS[kind];
  return k ? t(k) : kind;
}

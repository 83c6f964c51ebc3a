// The account form's fields read into the account rule's fields, and the rule's problems
// (core/channel-input.ts) as the console's inline messages. Amounts are typed in yuan, read by the
// CLI's parser (core/money.ts readTypedYuan): "" or 0 means no limit; the rule then checks the
// cents as it does for the CLI.
import type { ChannelProblem } from "../../core/channel-input.ts";
import { formatYuan, readTypedYuan } from "../../core/money.ts";
import type { ChannelFields } from "../../core/store.ts";
import type { ChannelAccount } from "../../core/types.ts";
import type { Translate } from "../i18n/index.ts";

/** The form's field names, by the rule's field. */
export const FORM_FIELD: Record<keyof ChannelFields, string> = {
  pid: "pid", payType: "pay_type", code: "code", name: "name", qrcode: "qrcode", scheme: "scheme", remark: "remark",
  minAmount: "min", maxAmount: "max", dayAmount: "day", sort: "sort",
};

export type Errors = Record<string, string>;

/** "" or "0" is 0 (no limit); otherwise yuan with at most two decimals. */
function cents(v: string): number | null {
  const s = v.trim();
  if (s === "") return 0;
  const r = readTypedYuan("", s, { zero: true });
  return r.ok ? r.cents : null;
}

/** The "不是常见格式，仍然保存" box: the operator confirmed a QR content of an unusual form. */
export const QR_FORCE_FIELD = "qrcode_force";

export function readAccountForm(form: URLSearchParams, t: Translate): { fields: ChannelFields; errors: Errors } {
  const errors: Errors = {};
  const get = (k: string) => form.get(k) ?? "";
  const pidText = get("pid").trim();
  if (!/^\d{1,9}$/.test(pidText)) errors.pid = t("accounts.bad_pid");
  const amount = (k: "min" | "max" | "day") => {
    const c = cents(get(k));
    if (c === null) errors[k] = t("accounts.bad_yuan");
    return c ?? 0;
  };
  const sortText = get("sort").trim();
  if (sortText !== "" && !/^\d{1,9}$/.test(sortText)) errors.sort = t("accounts.bad_int");
  const fields: ChannelFields = {
    pid: Number(pidText) || 0, payType: get("pay_type"), code: get("code"), name: get("name"), qrcode: get("qrcode"), scheme: get("scheme"), remark: get("remark"),
    minAmount: amount("min"), maxAmount: amount("max"), dayAmount: amount("day"), sort: Number(sortText) || 0,
  };
  return { fields, errors };
}

/** The form's values of a saved account (amounts in yuan, "" for no limit). */
export function accountFormValues(a: ChannelAccount): URLSearchParams {
  const yuan = (c: number) => (c > 0 ? formatYuan(c) : "");
  return new URLSearchParams({
    pid: String(a.pid), pay_type: a.payType, code: a.code, name: a.name, qrcode: a.qrcode, scheme: a.scheme, remark: a.remark,
    min: yuan(a.minAmount), max: yuan(a.maxAmount), day: yuan(a.dayAmount), sort: String(a.sort),
  });
}

export function payTypeLabel(t: Translate, payType: string): string {
  return payType === "alipay" || payType === "wxpay" || payType === "qqpay" ? t(`pay_type.${payType}`) : payType;
}

export function accountProblemText(t: Translate, p: ChannelProblem): string {
  const v = p.vars;
  const y = (k: string) => formatYuan(Number(v[k]));
  switch (p.code) {
    case "min_above_max": return t("accounts.p_min_above_max", { min: y("min"), max: y("max") });
    case "day_below_min": return t("accounts.p_day_below_min", { min: y("min"), day: y("day") });
    case "qrcode_not_url": return t("accounts.p_qrcode_not_url", { payType: payTypeLabel(t, String(v.payType)), example: String(v.example) });
    case "qrcode_unusual": return t("accounts.p_qrcode_unusual", { payType: payTypeLabel(t, String(v.payType)), expected: String(v.expected) });
    case "code_taken": {
      const owner = Number(v.pid) === 0 ? t("accounts.shared") : t("accounts.owner_pid", { pid: v.pid! });
      return t("accounts.p_code_taken", { code: v.code!, id: v.id!, owner, payType: payTypeLabel(t, String(v.payType)) });
    }
    default: return t(`accounts.p_${p.code}`, v);
  }
}

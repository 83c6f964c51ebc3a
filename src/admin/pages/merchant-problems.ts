// A merchant change's problems (core/merchant-admin.ts) as the console's inline messages.
import { MERCHANT_NAME_MAX, type MerchantProblem } from "../../core/merchant-admin.ts";
import type { Translate } from "../i18n/index.ts";
import { checkText } from "./settings-problems.ts";

/** Inline errors by form field name. */
export type Errors = Record<string, string>;

export function merchantProblemText(t: Translate, p: MerchantProblem): string {
  switch (p.code) {
    case "pid_taken": return t("merchants.pid_taken", { pid: p.detail ?? "" });
    case "name_empty": return t("merchants.name_empty");
    case "name_long": return t("merchants.name_long", { n: MERCHANT_NAME_MAX });
    case "method": return t("merchants.method_bad");
    case "setting_value": return t("merchants.setting_bad", { detail: checkText(t, p.detail ?? "") });
    default: return p.text;
  }
}

// A setting's check message (the English of core/settings.ts, which the CLI prints) in the
// console's language. The checks answer a few fixed shapes; anything else is shown as it is.
import type { Translate } from "../i18n/index.ts";

export function checkText(t: Translate, message: string): string {
  const range = /^must be an integer from (\d+) to (\d+)$/.exec(message);
  if (range) return t("settings.bad_int", { min: range[1]!, max: range[2]! });
  const choice = /^must be one of: (.+)$/.exec(message);
  if (choice) return t("settings.bad_choice", { values: choice[1]! });
  // A money setting (core/money.ts readTypedYuan): not yuan, or above its largest value.
  const yuan = /^".*" (?:is not an amount in yuan|must be more than 0 yuan); write it like (.+) or .+$/.exec(message);
  if (yuan) return t("settings.bad_yuan", { example: yuan[1]! });
  const above = /^".*" is more than (¥[\d.]+), the most it can be$/.exec(message);
  if (above) return t("settings.yuan_above", { max: above[1]! });
  if (message.startsWith("must be an http(s) URL")) return t("settings.bad_url");
  if (message.startsWith("must be an IANA time zone")) return t("settings.bad_zone");
  if (message.startsWith("must be host names")) return t("merchants.bad_hosts");
  if (message.startsWith("must be empty or 16-200 printable ASCII")) return t("settings.bad_token");
  return message;
}

/** The values a setting accepts when its check is a fixed list ("must be one of: a, b"), else null. */
export function choicesOf(check: ((v: string) => string | null) | undefined): string[] | null {
  const m = /^must be one of: (.+)$/.exec(check?.("\u0000") ?? "");
  return m ? m[1]!.split(", ") : null;
}

// The operator settings one merchant may override (`merchant set --setting`): the cashier page's,
// which cashierSetting() reads from the merchant first. Any other key would be stored and never
// read, so it is refused; a value is checked as `settings set` checks it.
import { settingDef } from "./settings.ts";

export const MERCHANT_SETTING_KEYS = [
  "pay_tip", "service_qq", "pay_account_tip", "pay_account_tip_cover", "pay_content", "pay_payed_wait_time", "audio_enable", "audio_content", "audio_url",
] as const;
export type MerchantSettingKey = (typeof MERCHANT_SETTING_KEYS)[number];

/** Why `key=value` cannot be a merchant's setting, or null. An empty value removes the override. */
export function merchantSettingProblem(key: string, value: string): string | null {
  if (!(MERCHANT_SETTING_KEYS as readonly string[]).includes(key)) return `unknown --setting ${key}; a merchant can set: ${MERCHANT_SETTING_KEYS.join(", ")}`;
  const bad = value === "" ? null : (settingDef(key)?.check?.(value) ?? null);
  return bad ? `--setting ${key} ${bad}` : null;
}

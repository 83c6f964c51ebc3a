// The settings one merchant may have (`merchant set --setting`, the console's merchant page): the
// cashier page's overrides, which cashierSetting() reads from the merchant first, and where its
// V免签 notifications and return links may go. Any other key would be stored and never read, so
// it is refused; a cashier value is checked as `settings set` checks it, a V免签 one by VMQ_URL_CHECKS.
import { checkUrl } from "./order-input.ts";
import { settingDef } from "./settings.ts";

export const MERCHANT_SETTING_KEYS = [
  "pay_tip", "service_qq", "pay_account_tip", "pay_account_tip_cover", "pay_content", "pay_payed_wait_time", "audio_enable", "audio_content", "audio_url",
] as const;
export type MerchantSettingKey = (typeof MERCHANT_SETTING_KEYS)[number];

/**
 * V免签's createOrder link passes the payer's browser and its sign does not cover notifyUrl or
 * returnUrl, so those are the operator's word, not the caller's: a caller's URL is used only when
 * it is the configured one or on a listed host (protocols/vmq/targets.ts).
 */
export const VMQ_URL_KEYS = ["vmq_notify_url", "vmq_return_url", "vmq_url_hosts"] as const;
export type VmqUrlKey = (typeof VMQ_URL_KEYS)[number];

export const MERCHANT_KEYS: readonly string[] = [...MERCHANT_SETTING_KEYS, ...VMQ_URL_KEYS];

const MAX_HOSTS = 20;

/** A host as both sides compare it: lower case, no trailing dot, the port only when not 80 or 443. */
function hostKey(u: URL): string | null {
  const host = u.hostname.replace(/\.+$/, "");
  if (host === "") return null;
  return u.port === "" || u.port === "80" || u.port === "443" ? host : `${host}:${u.port}`;
}

/** One entry of vmq_url_hosts (`shop.example.com`, `shop.example.com:8443`, `[2001:db8::1]:8080`), or null. */
export function hostEntry(entry: string): string | null {
  const e = entry.trim().toLowerCase();
  if (e === "" || /[/?#@\\\s]/.test(e)) return null;
  try {
    return hostKey(new URL(`http://${e}`));
  } catch {
    return null;
  }
}

/** The host of an http(s) URL as hostEntry writes it, or null. */
export function urlHost(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? hostKey(u) : null;
  } catch {
    return null;
  }
}

/** The list as stored: comma or space separated entries. */
export function parseHosts(value: string): string[] {
  return value.split(/[\s,]+/).filter((e) => e !== "").map((e) => hostEntry(e) ?? "").filter((e) => e !== "");
}

function hostsProblem(value: string): string | null {
  const entries = value.split(/[\s,]+/).filter((e) => e !== "");
  if (entries.length > MAX_HOSTS) return `must list at most ${MAX_HOSTS} hosts`;
  const bad = entries.find((e) => hostEntry(e) === null);
  return bad === undefined ? null : `must be host names (with :port when not 80/443) separated by commas, such as shop.example.com, shop.example.com:8443 (not: ${bad.slice(0, 64)})`;
}

const urlProblem = (v: string) => (checkUrl("url", v) === null ? null : "must be an http(s) URL of at most 1024 characters");

const VMQ_URL_CHECKS: Record<VmqUrlKey, (v: string) => string | null> = {
  vmq_notify_url: urlProblem,
  vmq_return_url: urlProblem,
  vmq_url_hosts: hostsProblem,
};

/** Why `key=value` cannot be a merchant's setting, or null. An empty value removes the setting. */
export function merchantSettingProblem(key: string, value: string): string | null {
  if (!MERCHANT_KEYS.includes(key)) return `unknown --setting ${key}; a merchant can set: ${MERCHANT_KEYS.join(", ")}`;
  if (value === "") return null;
  const bad = (VMQ_URL_CHECKS as Record<string, (v: string) => string | null>)[key]?.(value) ?? settingDef(key)?.check?.(value) ?? null;
  return bad ? `--setting ${key} ${bad}` : null;
}

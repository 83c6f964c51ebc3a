// The settings page's sections: each setting's group by its key, in the order listed here (then
// SETTINGS' order). A setting added later without a group here lands in "other" (and still works).
import type { SettingDef } from "../../core/settings.ts";
import type { TextKey } from "../i18n/index.ts";

const GROUPS = [
  ["orders", "settings.group_orders", ["order_ttl", "max_offset", "max_offset_percent", "offset_direction", "match_window"]],
  ["clients", "settings.group_clients", ["heartbeat_timeout", "require_online_client", "vmq_time_window", "smsforwarder_window", "report_merchant_secret", "third_account_secret", "report_retention_days", "unmatched_retention_days", "report_unmatched_daily", "client_history_days"]],
  ["notify", "settings.group_notify", ["notify_block_private", "notify_per_merchant", "notify_per_target", "attempt_retention_days"]],
  ["security", "settings.group_security", ["timestamp_window", "auth_fail_limit", "public_rate_limit", "lookup_miss_limit"]],
  ["cashier", "settings.group_cashier", ["pay_payed_wait_time", "pay_tip", "service_qq", "pay_account_tip", "pay_account_tip_cover", "pay_content", "audio_enable", "audio_content", "audio_url"]],
  ["system", "settings.group_system", ["base_url", "timezone", "epay_status_style"]],
  ["console", "settings.group_console", ["admin_enabled", "admin_session_idle", "admin_session_max", "login_failure_retention_days"]],
  ["alerts", "settings.group_alerts", []],
  ["metrics", "settings.group_metrics", ["metrics_enabled", "metrics_token"]],
] as const satisfies readonly (readonly [string, TextKey, readonly string[]])[];

export interface SettingGroup {
  id: string;
  label: TextKey;
  defs: SettingDef[];
}

function groupOf(key: string): string {
  if (key.startsWith("alert_")) return "alerts";
  return GROUPS.find(([, , keys]) => (keys as readonly string[]).includes(key))?.[0] ?? "other";
}

export function groupSettings(defs: readonly SettingDef[]): SettingGroup[] {
  const groups: SettingGroup[] = [...GROUPS.map(([id, label]) => ({ id, label: label as TextKey, defs: [] as SettingDef[] })), { id: "other", label: "settings.group_other", defs: [] }];
  for (const def of defs) groups.find((g) => g.id === groupOf(def.key))!.defs.push(def);
  const rank = (key: string) => {
    const listed = GROUPS.find(([, , keys]) => (keys as readonly string[]).includes(key))?.[2] as readonly string[] | undefined;
    return listed ? listed.indexOf(key) : Number.MAX_SAFE_INTEGER;
  };
  for (const g of groups) g.defs.sort((a, b) => rank(a.key) - rank(b.key)); // stable: unlisted keys keep SETTINGS' order
  return groups.filter((g) => g.defs.length > 0);
}

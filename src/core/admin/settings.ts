// The console's operator settings, spread into SETTINGS (core/settings.ts) so `xpay settings`
// documents and checks them like every other.
import type { SettingDef } from "../settings.ts";

const intIn = (min: number, max: number) => (v: string) =>
  /^\d+$/.test(v) && Number(v) >= min && Number(v) <= max ? null : `must be an integer from ${min} to ${max}`;

export const ADMIN_SETTINGS: SettingDef[] = [
  { key: "admin_enabled", default: "1", help: "1: the operator console answers under /admin; 0: every /admin path is 404 (a running server follows within a second). `serve --no-admin` does the same for one run.", check: (v) => (v === "0" || v === "1" ? null : "must be one of: 0, 1") },
  { key: "admin_session_idle", default: "1800", help: "Seconds a console session stays logged in without a request (idle expiry).", check: intIn(60, 86400) },
  { key: "admin_session_max", default: "43200", help: "Seconds a console session lasts at most from its login, however busy (absolute expiry); the shorter of the two limits ends it.", check: intIn(300, 2592000) },
  { key: "login_failure_retention_days", default: "30", help: "Days to keep the failed-login counters (per user name, browser, minute and address; `xpay admin failed-logins`); the retention prune of serve removes older ones. 0 = keep forever.", check: intIn(0, 36500) },
];

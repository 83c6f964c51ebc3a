// Monitoring clients' settings, spread into SETTINGS (core/settings.ts) so `xpay settings`
// documents and checks them like every other.
import type { SettingDef } from "../settings.ts";

export const CLIENT_SETTINGS: SettingDef[] = [
  {
    key: "client_history_days",
    default: "90",
    help: "Days to keep each monitoring client's online history (one row per online stretch, shown on the console's client page); the retention prune of serve removes older stretches. 0 = keep forever.",
    check: (v) => (/^\d+$/.test(v) && Number(v) <= 3650 ? null : "must be an integer from 0 to 3650"),
  },
  {
    key: "report_merchant_secret",
    default: "1",
    help: "1: the report API (/api/report/{pid}...) also accepts reports signed with the merchant's AppSecret, as the spec has it; they pay only orders on that merchant's own accounts that no client is bound to, never the shared ones. 0: only clients with a secret of their own (xpay client add-report, add-smsforwarder, add-vmq) may report.",
    check: (v) => (v === "0" || v === "1" ? null : "must be 0 or 1"),
  },
  {
    key: "smsforwarder_window",
    default: "120",
    help: "Seconds an SmsForwarder request's timestamp (the phone's clock, milliseconds) may differ from the server's. Its signature covers the timestamp only, so each timestamp is accepted once and a short window limits what a captured request is worth.",
    check: (v) => (/^\d+$/.test(v) && Number(v) >= 10 && Number(v) <= 3600 ? null : "must be an integer from 10 to 3600"),
  },
];

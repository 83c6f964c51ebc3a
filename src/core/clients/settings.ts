// Device history's setting, spread into SETTINGS (core/settings.ts) so `xpay settings` documents
// and checks it like every other.
import type { SettingDef } from "../settings.ts";

export const CLIENT_SETTINGS: SettingDef[] = [
  {
    key: "client_history_days",
    default: "90",
    help: "Days to keep each monitoring client's online history (one row per online stretch, shown on the console's client page); the retention prune of serve removes older stretches. 0 = keep forever.",
    check: (v) => (/^\d+$/.test(v) && Number(v) <= 3650 ? null : "must be an integer from 0 to 3650"),
  },
];

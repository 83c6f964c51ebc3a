// The /metrics settings (server/metrics/route.ts), spread into the one SETTINGS table
// (core/settings.ts) so `xpay settings` documents and checks them like the rest.
import type { SettingDef } from "./settings.ts";

export const METRICS_SETTINGS: SettingDef[] = [
  { key: "metrics_enabled", default: "1", help: "1: serve Prometheus metrics at /metrics (to loopback clients, or to any client with metrics_token). 0: /metrics answers 404 at once, and `xpay serve` started with 0 counts nothing.", check: (v) => (v === "0" || v === "1" ? null : "must be one of: 0, 1") },
  { key: "metrics_token", default: "", help: "When set, /metrics needs `Authorization: Bearer <token>` from any address (for a Prometheus on another machine); when empty, /metrics answers only loopback clients (127.0.0.1, ::1) that came through no proxy. At least 16 characters.", secret: true, check: (v) => (v === "" || /^[\x21-\x7e]{16,200}$/.test(v) ? null : "must be empty or 16-200 printable ASCII characters without spaces, e.g. from openssl rand -hex 24") },
];

// Operator settings: one table of keys with their defaults, checks and help text. The CLI's
// `xpay settings` documents itself from this table, and the core reads typed values through it.
import { ADMIN_SETTINGS } from "./admin/settings.ts";
import { ALERT_SETTINGS } from "./alerts/settings.ts";
import { CLIENT_SETTINGS } from "./clients/settings.ts";
import { METRICS_SETTINGS } from "./metrics-settings.ts";
import { formatYuan, readTypedYuan, showYuan } from "./money.ts";
import { DEFAULT_TIME_ZONE, timeZoneProblem } from "./time.ts";

export interface SettingDef {
  key: string;
  default: string;
  help: string;
  /** Returns an error message when the value is not acceptable. */
  check?: (value: string) => string | null;
  /** Never printed by `settings list`. */
  secret?: boolean;
  /**
   * An amount: typed in yuan (`settings set max_offset 0.10`, the console's field), shown with its
   * unit (¥0.10), stored and read (`int()`) in cents, and named `<key>_cents` in `--json`. `check`
   * and `default` are in those units: check takes the yuan typed, default is the stored cents.
   */
  money?: boolean;
}

const intIn = (min: number, max: number) => (v: string) =>
  /^\d+$/.test(v) && Number(v) >= min && Number(v) <= max ? null : `must be an integer from ${min} to ${max}`;
/** An amount in yuan from 0 to `max` cents (a money setting's check). */
const yuanUpTo = (max: number, example: readonly [string, string]) => (v: string) => {
  const r = readTypedYuan("", v, { zero: true, max, example });
  return r.ok ? null : r.problem;
};
const oneOf = (...values: string[]) => (v: string) => (values.includes(v) ? null : `must be one of: ${values.join(", ")}`);

export const SETTINGS: SettingDef[] = [
  { key: "order_ttl", default: "900", help: "Seconds an order stays payable after creation.", check: intIn(60, 86400) },
  { key: "max_offset", default: "10", money: true, help: "How far (in yuan, 0 to 10.00) the payable amount may differ from the order amount to stay unique on an account; max_offset_percent bounds it too (the tighter wins).", check: yuanUpTo(1000, ["0.10", "1.00"]) },
  { key: "max_offset_percent", default: "10", help: "How far the payable amount may differ from the order amount, in percent of the amount (rounded down to the cent): V1, V2 and hash notifications tell the shop the price asked, so this is the discount (or, with offset_direction up, surcharge) a payer can get at most. With the default 10, a 0.30 order is paid with 0.27 to 0.30, a 1.00 order with 0.90 to 1.00; 100 leaves only max_offset.", check: intIn(0, 100) },
  { key: "offset_direction", default: "down", help: "Search free payable amounts below (down) or above (up) the order amount.", check: oneOf("down", "up") },
  { key: "match_window", default: "600", help: "Seconds after an unpaid order ends during which a late payment still matches it and its amount stays reserved.", check: intIn(0, 86400) },
  { key: "timestamp_window", default: "300", help: "Accepted clock skew in seconds for signed `timestamp` fields (V2, native cancel, report API).", check: intIn(1, 86400) },
  { key: "vmq_time_window", default: "86400", help: "Accepted difference in seconds between a V免签 monitor app's clock (its `t`, milliseconds) and the server's, for /appHeart, /appPush and /getState. Phone clocks drift; a push re-sent within it pays once (dedupe), an older one is refused.", check: intIn(60, 604800) },
  { key: "require_online_client", default: "0", help: "1: allocate only accounts whose monitoring client reported within the heartbeat timeout.", check: oneOf("0", "1") },
  { key: "heartbeat_timeout", default: "90", help: "Seconds a monitoring client counts as online after its last report or heartbeat.", check: intIn(10, 3600) },
  { key: "notify_block_private", default: "0", help: "1: refuse notify_url targets on private, loopback, reserved and this server's own addresses (IPv6 spellings that embed one included), at create time and (resolved once, then connected to) before each delivery. Same as `serve --notify-block-private`. Off by default for merchants on the same machine; link-local (cloud metadata), 0.0.0.0/8 and multicast are refused either way.", check: oneOf("0", "1") },
  { key: "notify_per_merchant", default: "16", help: "Notification attempts one merchant may have in flight at once (of 128); its other due notifications wait their turn, so one merchant whose endpoint hangs never delays the others.", check: intIn(1, 128) },
  { key: "notify_per_target", default: "16", help: "Notification attempts in flight at once to one host:port, whichever merchants point there.", check: intIn(1, 128) },
  { key: "public_rate_limit", default: "120", help: "Requests per minute per client IP on the public cashier routes (/pay/*, /api/order/*, /qrcode); 0 = no limit.", check: intIn(0, 1000000) },
  { key: "lookup_miss_limit", default: "30", help: "Lookups on the cashier API (/api/order/*) that find no order (an order_id, or pid + out_order_id, that names none), per minute per client IP; each is logged (order.lookup_miss), and an address over it is answered 429 until a minute's share refills; 0 = no limit. The payer's own page never misses.", check: intIn(0, 1000000) },
  { key: "base_url", default: "", help: "Public base URL of the gateway for links that CLI commands print (order inspect). `xpay serve` records the one it uses (--base-url, XPAY_BASE_URL, or http://host:port) at every start; XPAY_BASE_URL wins over it.", check: (v) => (v === "" || /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(v) ? null : "must be an http(s) URL such as https://pay.example.com") },
  { key: "timezone", default: DEFAULT_TIME_ZONE, help: "Time zone of every time xpay shows the operator (log lines, CLI output), each with its UTC offset, e.g. 2026-11-23 20:15:00 +08:00; an IANA name such as Asia/Shanghai or UTC. `xpay serve` reads it at start. trade_no, daily limits and the epay addtime/endtime fields stay on China time (UTC+8) whatever it says.", check: timeZoneProblem },
  { key: "auth_fail_limit", default: "30", help: "Failed authentications (unknown merchant, bad signature, bad key, unreadable request) per minute per client IP on every merchant and report route; an address over it is answered 429-style at once until a minute's share refills; 0 = no limit.", check: intIn(0, 1000000) },
  { key: "report_retention_days", default: "30", help: "Days to keep reports that recorded no payment (heartbeats, refused reports, duplicates, messages that were not a payment), the refusal counters and the daily counters of report_unmatched_daily; reports that paid an order are kept like orders. 0 = keep forever.", check: intIn(0, 36500) },
  { key: "unmatched_retention_days", default: "90", help: "Days to keep unmatched payment reports (money received that paid no order, waiting for the operator to assign it: xpay report assign); one the operator assigned paid its order and is kept like the order. 0 = keep forever.", check: intIn(0, 36500) },
  { key: "report_unmatched_daily", default: "1000", help: "Unmatched reports stored per day for one signer (a merchant's AppSecret, a client, the third-account secret), payments that paid no order and messages that were not a payment each counted apart; past it they are counted, not stored (xpay report bounds), and the report_bound alert fires. 0 = no bound.", check: intIn(0, 1000000) },
  { key: "attempt_retention_days", default: "30", help: "Days to keep the attempt log (status, response excerpt) of delivered or failed notifications; a notification still being retried keeps all of its attempts. 0 = keep forever.", check: intIn(0, 36500) },
  { key: "third_account_secret", default: "", help: "Secret that signs /api/report/third-account reports (MD5 rule of the spec).", secret: true },
  { key: "epay_status_style", default: "spec", help: "spec: V1 api.php and V2 query answer status 1 pending / 2 paid; legacy: 0 unpaid / 1 paid, as 彩虹易支付 SDKs expect.", check: oneOf("spec", "legacy") },
  { key: "pay_payed_wait_time", default: "3", help: "Seconds the cashier page shows success before redirecting to return_url.", check: intIn(0, 60) },
  { key: "pay_tip", default: "", help: "Tip shown on the cashier page." },
  { key: "service_qq", default: "", help: "Customer service QQ shown on the cashier page." },
  { key: "pay_account_tip", default: "", help: "Account tip shown on the cashier page (pay_account_tip.tip)." },
  { key: "pay_account_tip_cover", default: "0", help: "1: the account tip covers the QR code until the payer dismisses it (pay_account_tip.tip_cover).", check: oneOf("0", "1") },
  { key: "pay_content", default: "", help: "Text shown under the subject on the cashier page (template API info.content)." },
  { key: "audio_enable", default: "0", help: "1: the cashier page offers a spoken prompt.", check: oneOf("0", "1") },
  { key: "audio_content", default: "请支付{{trade_amount}}元", help: "Spoken prompt template: {{trade_amount}} {{amount}} {{order_id}} {{out_order_id}} {{subject}} {{pay_type}}." },
  { key: "audio_url", default: "", help: "URL of the spoken prompt (e.g. a TTS service); the same placeholders plus {{content}} (the prompt), URL-encoded. Empty: no audio." },
  ...ADMIN_SETTINGS,
  ...ALERT_SETTINGS,
  ...METRICS_SETTINGS,
  ...CLIENT_SETTINGS,
];

const DEFS = new Map(SETTINGS.map((d) => [d.key, d]));

export function settingDef(key: string): SettingDef | undefined {
  return DEFS.get(key);
}

/** A stored value as a person reads it: a money setting with its unit (¥0.10). */
export function shownSetting(def: SettingDef, stored: string): string {
  return def.money && /^\d+$/.test(stored) ? showYuan(Number(stored)) : stored;
}

/** A stored value as a form field holds it for editing: a money setting in yuan (0.10). */
export function typedSetting(def: SettingDef, stored: string): string {
  return def.money && /^\d+$/.test(stored) ? formatYuan(Number(stored)) : stored;
}

/** The value to store for one that passed its check: a money setting's yuan as cents. */
export function storedSetting(def: SettingDef, typed: string): string {
  if (!def.money) return typed;
  const r = readTypedYuan("", typed, { zero: true });
  return r.ok ? String(r.cents) : typed;
}

/** Typed view over the stored values with the defaults filled in. */
export class Settings {
  constructor(private readonly values: Record<string, string>) {}
  str(key: string): string {
    return this.values[key] ?? DEFS.get(key)?.default ?? "";
  }
  int(key: string): number {
    return Number(this.str(key)) || 0;
  }
}

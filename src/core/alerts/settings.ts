// The alert thresholds: one operator setting per condition, 0 turns it off. Spread into the one
// SETTINGS table (core/settings.ts), so `xpay settings` documents and checks them like the rest.
import type { SettingDef } from "../settings.ts";

const intIn = (min: number, max: number) => (v: string) =>
  /^\d+$/.test(v) && Number(v) >= min && Number(v) <= max ? null : `must be an integer from ${min} to ${max}`;
const onOff = (v: string) => (v === "0" || v === "1" ? null : "must be one of: 0, 1");

export const ALERT_SETTINGS: SettingDef[] = [
  { key: "alert_client_silent", default: "90", help: "Alert when a monitoring client (phone, watcher, V免签 app) has sent nothing for this many seconds, and again (resolved) when it reports; never earlier than heartbeat_timeout. 0 = off.", check: intIn(0, 604800) },
  { key: "alert_account_offline", default: "60", help: "Alert when an account has had a pending order for this many seconds while no monitoring client of it is online (seen within heartbeat_timeout): payers are paying into an account nobody watches. 0 = off.", check: intIn(0, 86400) },
  { key: "alert_notify_failures", default: "5", help: "Alert when a merchant notification has failed this many attempts in a row (the 5th is about 4 minutes after payment); resolved when it is delivered. 0 = off.", check: intIn(0, 16) },
  { key: "alert_notify_given_up", default: "1", help: "1: alert when a merchant notification is given up after its last attempt (about 24 h).", check: onOff },
  { key: "alert_merchant_failing", default: "30", help: "Alert when a merchant's notifications have been failing for this many minutes with no delivery to it in that time. 0 = off.", check: intIn(0, 10080) },
  { key: "alert_unmatched", default: "1", help: "1: alert on every payment report that paid no order (money received with no order, or several orders with that amount).", check: onOff },
  { key: "alert_late_payment", default: "1", help: "1: alert on a payment that arrived after its order ended (timed out or closed), whether the match window still let it pay or not.", check: onOff },
  { key: "alert_create_failures", default: "5", help: "Alert when this many orders of one merchant failed at creation (no account, no free amount: status 5) within alert_create_window. 0 = off.", check: intIn(0, 1000000) },
  { key: "alert_create_window", default: "600", help: "Seconds over which alert_create_failures counts failed creations.", check: intIn(60, 86400) },
  { key: "alert_db_write", default: "1", help: "1: alert when the database refuses a write (full disk, read-only file); sent straight to the channels, since the outbox itself cannot be written then.", check: onOff },
  { key: "alert_unparsed", default: "3", help: "Alert when this many notifications from a payment sender (微信支付, 支付宝, QQ钱包...) matched no payment rule within an hour: the app may have changed its wording and payments are being missed. 0 = off.", check: intIn(0, 1000000) },
  { key: "alert_report_bound", default: "1", help: "1: alert while a signer (a merchant's AppSecret, a client, the third-account secret) is at today's report_unmatched_daily bound: its further unmatched reports are counted, not stored; resolved when the day ends.", check: onOff },
  { key: "alert_throttle", default: "900", help: "Seconds: one alert (dedupe key) sends at most one firing message per this interval; a condition that flaps is held back and sent once if it still holds at the end. Its resolved message always follows a firing one that was sent.", check: intIn(0, 86400) },
];

/** The thresholds a pass uses; 0 (or false) means the condition is off. */
export interface Thresholds {
  clientSilent: number;
  heartbeatTimeout: number;
  accountOffline: number;
  notifyFailures: number;
  notifyGivenUp: boolean;
  merchantFailingMin: number;
  unmatched: boolean;
  latePayment: boolean;
  createFailures: number;
  createWindow: number;
  dbWrite: boolean;
  unparsed: number;
  /** The daily bound of unmatched reports, when its alert is on; 0: off (or no bound). */
  reportBound: number;
  throttle: number;
}

export function thresholds(s: { int(key: string): number }): Thresholds {
  return {
    clientSilent: s.int("alert_client_silent"),
    heartbeatTimeout: s.int("heartbeat_timeout"),
    accountOffline: s.int("alert_account_offline"),
    notifyFailures: s.int("alert_notify_failures"),
    notifyGivenUp: s.int("alert_notify_given_up") === 1,
    merchantFailingMin: s.int("alert_merchant_failing"),
    unmatched: s.int("alert_unmatched") === 1,
    latePayment: s.int("alert_late_payment") === 1,
    createFailures: s.int("alert_create_failures"),
    createWindow: s.int("alert_create_window") || 600,
    dbWrite: s.int("alert_db_write") === 1,
    unparsed: s.int("alert_unparsed"),
    reportBound: s.int("alert_report_bound") === 1 ? s.int("report_unmatched_daily") : 0,
    throttle: s.int("alert_throttle"),
  };
}

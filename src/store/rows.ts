// Row <-> domain mapping, in one place so column names live next to each other.
import type { ChannelAccount, Family, Merchant, Order, OrderStatus } from "../core/types.ts";
import type { MonitorClient, Notification, NotificationAttempt, StoredReport } from "../core/store.ts";
import type { HeldSlot } from "../core/slots/store.ts";
import { publicTradeNo, publicTradeNoOrNull } from "./trade-no.ts";

type Row = Record<string, unknown>;
const str = (v: unknown) => (v === null || v === undefined ? "" : String(v));
const num = (v: unknown) => Number(v ?? 0);
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function json<T>(v: unknown, fallback: T): T {
  try {
    return typeof v === "string" ? (JSON.parse(v) as T) : fallback;
  } catch {
    return fallback;
  }
}

export function toMerchant(r: Row): Merchant {
  return {
    pid: num(r.pid),
    name: str(r.name),
    secret: str(r.secret),
    active: num(r.active) === 1,
    rsaPublicKey: r.rsa_public_key === null ? null : str(r.rsa_public_key),
    notifyMethod: r.notify_method === "GET" ? "GET" : "POST",
    settings: json(r.settings, {}),
    createdAt: num(r.created_at),
  };
}

export function toChannel(r: Row): ChannelAccount {
  return {
    id: num(r.id),
    pid: num(r.pid),
    payType: str(r.pay_type),
    code: str(r.code),
    name: str(r.name),
    remark: str(r.remark),
    qrcode: str(r.qrcode),
    scheme: str(r.scheme),
    minAmount: num(r.min_amount),
    maxAmount: num(r.max_amount),
    dayAmount: num(r.day_amount),
    sort: num(r.sort),
    enabled: num(r.enabled) === 1,
    useSeq: num(r.use_seq),
    lastSeenAt: num(r.last_seen_at),
    createdAt: num(r.created_at),
    reportGroup: num(r.report_group),
  };
}

export function toOrder(r: Row): Order {
  return {
    tradeNo: publicTradeNo(str(r.trade_no)),
    pid: num(r.pid),
    outTradeNo: str(r.out_trade_no),
    family: str(r.family) as Family,
    payType: str(r.pay_type),
    name: str(r.name),
    amount: num(r.amount),
    tradeAmount: numOrNull(r.trade_amount),
    accountId: numOrNull(r.account_id),
    status: num(r.status) as OrderStatus,
    failReason: str(r.fail_reason),
    notifyUrl: str(r.notify_url),
    returnUrl: str(r.return_url),
    param: str(r.param),
    clientip: str(r.clientip),
    device: str(r.device),
    extra: json(r.extra, {}),
    apiTradeNo: str(r.api_trade_no),
    buyer: str(r.buyer),
    createdAt: num(r.created_at),
    expireTime: num(r.expire_time),
    paidAt: numOrNull(r.paid_at),
    closedAt: numOrNull(r.closed_at),
  };
}

export function toNotification(r: Row): Notification {
  return {
    id: num(r.id),
    tradeNo: publicTradeNo(str(r.trade_no)),
    family: str(r.family),
    url: str(r.url),
    method: r.method === "GET" ? "GET" : "POST",
    params: json(r.params, {}),
    status: str(r.status) as Notification["status"],
    attempts: num(r.attempts),
    nextAttemptAt: num(r.next_attempt_at),
    createdAt: num(r.created_at),
    deliveredAt: numOrNull(r.delivered_at),
    ...(r.pid == null ? {} : { pid: num(r.pid) }),
  };
}

export function toAttempt(r: Row): NotificationAttempt {
  return {
    attemptedAt: num(r.attempted_at),
    durationMs: num(r.duration_ms),
    httpStatus: numOrNull(r.http_status),
    body: str(r.body),
    error: str(r.error),
    acknowledged: num(r.acknowledged) === 1,
  };
}

export function toReport(r: Row): StoredReport {
  return {
    id: num(r.id),
    kind: str(r.kind) as StoredReport["kind"],
    pid: numOrNull(r.pid),
    client: str(r.client),
    raw: str(r.raw),
    amount: numOrNull(r.amount),
    payType: str(r.pay_type),
    channelCode: str(r.channel_code),
    dedupeKey: r.dedupe_key === null ? null : str(r.dedupe_key),
    outcome: str(r.outcome) as StoredReport["outcome"],
    reason: str(r.reason),
    reasonCode: r.reason_code == null ? null : str(r.reason_code),
    reasonArgs: r.reason_args == null ? null : str(r.reason_args),
    source: str(r.source),
    tradeNo: publicTradeNoOrNull(r.trade_no),
    createdAt: num(r.created_at),
  };
}

/** A held slot as the reserved-amounts view shows it, from a row of either adapter's SLOT_HELD query. */
export const toHeldSlot = (r: Record<string, unknown>): HeldSlot => ({
  tradeAmount: Number(r.trade_amount),
  accountId: Number(r.account_id),
  tradeNo: publicTradeNo(String(r.trade_no)),
  outTradeNo: String(r.out_trade_no),
  pid: Number(r.pid),
  amount: Number(r.amount),
  status: Number(r.status),
  createdAt: Number(r.created_at),
  expireTime: Number(r.expire_time),
  paidAt: numOrNull(r.paid_at),
  closedAt: numOrNull(r.closed_at),
});

const CLIENT_KINDS = new Set(["third-account", "vmq", "smsforwarder", "report"]);

export function toClient(r: Row): MonitorClient {
  return {
    id: Number(r.id),
    kind: CLIENT_KINDS.has(String(r.kind)) ? (r.kind as MonitorClient["kind"]) : "phone",
    pid: Number(r.pid ?? 0),
    name: String(r.name ?? ""),
    channelId: r.channel_id === null || r.channel_id === undefined ? null : Number(r.channel_id),
    extData: String(r.ext_data ?? ""),
    lastSeenAt: Number(r.last_seen_at ?? 0),
  };
}

// The store's surface: coarse async units of work, each atomic. Rules that must run inside a
// transaction arrive as plain functions, so the store never imports the core's logic and a second
// implementation (PostgreSQL) could serve the same core.
import type { AdminStore } from "./admin/store.ts";
import type { AllocationRule } from "./allocation.ts";
import type { DevStore } from "./dev/store.ts";
import type { AssignReportUnit, AssignReportResult } from "./assign-report.ts";
import type { BrowseStore } from "./browse/store.ts";
import type { DeviceStore } from "./clients/store.ts";
import type { RefusalLimits, RefusalRecord } from "./refusals.ts";
import type { MatchDecision, MatchView } from "./report-match.ts";
import type { Reason } from "./reasons.ts";
import type { RulesStore } from "./rules/store.ts";
import type { SlotStore } from "./slots/store.ts";
import type { StatsStore } from "./stats/store.ts";
import type { AlertStore } from "./alerts/store.ts";
import type { ChannelAccount, Merchant, NewOrder, Order } from "./types.ts";

export type ExistingDecision = { kind: "return" } | { kind: "retry" } | { kind: "error"; reason: string };

export interface CreateOrderUnit {
  order: NewOrder;
  /** A number drawn for the new order (PostgreSQL); SQLite makes it from the order's place instead (store/sqlite/order-keys.ts). */
  newTradeNo: () => string;
  now: number;
  expireTime: number;
  /** Decides what a create with an out_trade_no that exists already does. */
  onExisting: (existing: Order) => ExistingDecision;
  /** Null when the order has no pay type yet (the payer picks on the cashier page). */
  allocate: AllocationRule | null;
}

/** `account` is the order's receiving account (null when it has none yet). */
export type CreateOrderResult =
  | { kind: "created"; order: Order; account: ChannelAccount | null }
  | { kind: "existing"; order: Order; account: ChannelAccount | null }
  | { kind: "error"; reason: string };

export interface OutboxEntry {
  family: string;
  url: string;
  method: "GET" | "POST";
  params: Record<string, string>;
}

export interface PayUnit {
  tradeNo: string;
  now: number;
  nowMs: number;
  apiTradeNo?: string;
  buyer?: string;
  /** An order timed out at or after this time still accepts a (late) payment. */
  acceptTimedOutSince: number;
  /** The notification row for the paid order, or null when it has no notify_url. */
  outbox: (paid: Order) => OutboxEntry | null;
  /**
   * Asked with the row before it is written: a worker of this process takes it there (the lease's
   * end, ms), so the row is written leased, no claim of any process sends it, and it goes out when
   * the commit is answered (notify/handoff.ts). Null or absent: the row is written due and unleased.
   * Asked again when a store reruns the unit (a PostgreSQL deadlock victim): the answer is for the
   * row that run writes.
   */
  lease?: (row: { pid: number; url: string }) => number | null;
}

export type PayResult =
  | { kind: "paid"; order: Order; notificationId: number | null }
  | { kind: "already_paid"; order: Order }
  | { kind: "not_payable"; order: Order; reason: string }
  | { kind: "not_found" };

/** The outbox's filter: status, the order's merchant, created at or after `fromMs` and before `toMs`. */
export interface NotificationFilter {
  status?: string;
  pid?: number;
  fromMs?: number;
  toMs?: number;
  limit?: number;
}

export interface Notification {
  id: number;
  tradeNo: string;
  family: string;
  url: string;
  method: "GET" | "POST";
  params: Record<string, string>;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  nextAttemptAt: number; // ms
  createdAt: number; // ms
  deliveredAt: number | null;
  /** The order's merchant, kept on the row since migration 037 (absent on a row written without it). */
  pid?: number;
}

/** One merchant's notification delivery, as the merchants list and `xpay notify health` show it (times ms). */
export interface MerchantDelivery {
  pid: number;
  lastSuccessAt: number | null;
  /** The first failed attempt after the last success; null while the last attempt succeeded. */
  failingSince: number | null;
  lastFailureAt: number | null;
  /** The last failed attempt's error, or `HTTP <status>` when the answer was not the acknowledgement. */
  lastError: string;
  /** Deliveries ever recorded: a resend's outcome is this count now minus the count then. */
  delivered: number;
  /** Queue depth: notifications waiting for an attempt (new or retrying). */
  pending: number;
  /** Undelivered notifications that failed at least once (retrying or given up): what a resend sends again. */
  failing: number;
  /** Given up after the last retry. */
  givenUp: number;
}

/** Undelivered notifications that failed, grouped by merchant and last error ("ECONNREFUSED ×28, 商户 1001"). */
export interface FailureGroup {
  pid: number;
  /** The last attempt's error, or `HTTP <status>`. */
  error: string;
  count: number;
  /** Of those, given up after the last retry. */
  givenUp: number;
  /** The first and the last of their last attempts (ms). */
  firstAt: number;
  lastAt: number;
}

export interface NotificationAttempt {
  attemptedAt: number; // ms
  durationMs: number;
  httpStatus: number | null;
  body: string;
  error: string;
  acknowledged: boolean;
}

/** The worker's fair-share rule, run inside the claim (notify/fairness.ts). */
export interface ClaimFilter {
  /** Due rows past this many per merchant are not read: they could not be admitted anyway. */
  perMerchant: number;
  admit(row: { id: number; pid: number; url: string }): boolean;
}

export interface AttemptOutcome {
  attempt: NotificationAttempt;
  status: Notification["status"];
  nextAttemptAt: number;
  /** The notified order's merchant, when the attempt read it: its delivery row moves without a lookup of the order. */
  pid?: number;
}

export interface ReportRecord {
  kind: "message" | "amount" | "heart" | "third-account" | "third-heart" | "operator" | "vmq-push" | "vmq-heart";
  pid: number | null;
  client: string;
  raw: string;
  amount: number | null;
  payType: string;
  channelCode: string;
  dedupeKey: string | null;
  outcome: "matched" | "unmatched" | "duplicate" | "rejected" | "accepted";
  /** The English text (the report API's and the CLI's words). */
  reason: string;
  /** The reason as a code and its parameters (core/reasons.ts, JSON text); null on refusals and older rows. */
  reasonCode?: string | null;
  reasonArgs?: string | null;
  tradeNo: string | null;
  createdAt: number;
}

export interface StoredReport extends ReportRecord {
  id: number;
  /** Refused reports: the client address (or claimed merchant) they came from. */
  source?: string;
}

/** How many reports one source had refused for one reason (core/refusals.ts). */
export interface RefusalCount {
  source: string;
  reason: string;
  count: number;
  firstSeen: number;
  lastSeen: number;
}

/** One batch of the retention prune (core/retention.ts); times in seconds except attempts (ms); 0 prunes nothing. */
export interface PruneBatch {
  reportsBefore: number;
  /** Unmatched reports with an amount (money that paid no order) created before this; absent: none. */
  unmatchedBefore?: number;
  attemptsBeforeMs: number;
  batch: number;
}

/** At most `max` unmatched reports of one signer (`key`) are stored on `day` (core/report-bounds.ts). */
export interface ReportBound {
  key: string;
  /** Unix seconds of the day's start. */
  day: number;
  max: number;
}

/** One signer's unmatched reports of one day: stored, and counted past the bound (not stored). */
export interface ReportBoundCount {
  key: string;
  day: number;
  stored: number;
  dropped: number;
  lastAt: number;
}

/** The start check of the database file (serve): sound, damaged, or still running after the wait. */
export type IntegrityReport =
  | { state: "ok" }
  | { state: "damaged"; problems: string[] }
  | { state: "not checked"; reason: string }
  | { state: "unfinished"; result: Promise<Exclude<IntegrityReport, { state: "unfinished" }>>; cancel(): void };

export interface PruneCounts {
  reports: number;
  attempts: number;
  counters: number;
}

/** One payment report, settled atomically: dedupe, match, pay (with its outbox row), store. */
export interface SettleReportUnit {
  /** outcome, reason and tradeNo are decided by the unit. */
  report: ReportRecord;
  decide: (view: MatchView) => MatchDecision;
  pay: (order: Order) => PayUnit;
  /** Why a matched order was not paid after all (the pay unit's conditional update has the last word). */
  notPaid: (pay: Exclude<PayResult, { kind: "paid" }>, tradeNo: string) => Reason;
  /** Claimed in the same transaction: a timestamp the client used before settles nothing (`replayed`). */
  nonce?: NonceClaim;
  /** An unmatched outcome past this bound is counted, not stored. */
  bound?: ReportBound | null;
}

export interface SettleReportResult {
  /** null: unmatched past its signer's daily bound, counted and not stored. */
  reportId: number | null;
  outcome: ReportRecord["outcome"];
  reason: string;
  /** The reason as a code (core/reasons.ts); absent on a replayed request, which stored nothing. */
  why?: Reason;
  tradeNo: string | null;
  pay: PayResult | null;
  /** The unit's nonce was used before: nothing was stored or paid (reportId 0). */
  replayed?: boolean;
}

/** A phone or third-party-account watcher that reports; its last report is what "online" means. */
/**
 * `onlyListed`: refresh the client's row only if it exists (its accounts are marked seen either
 * way). An amount report signed with a merchant's AppSecret names where the money was seen
 * (coll_user, uid, the channel_code) but is no client of its own: it must not add a row that the
 * client_silent alert then watches (issue 31).
 */
export interface SeenOptions {
  onlyListed?: boolean;
}

export interface MonitorClient {
  id: number;
  /** phone: a report signed with a merchant's AppSecret; the others are keyed clients' kinds. */
  kind: "phone" | "third-account" | KeyedKind;
  pid: number; // 0 for third-account watchers and the operator's own keyed clients
  name: string;
  channelId: number | null;
  extData: string;
  lastSeenAt: number;
}

/** What a keyed client runs: the V免签 app, SmsForwarder's webhook, or anything speaking the report API. */
export type KeyedKind = "vmq" | "smsforwarder" | "report";

/**
 * A client with a secret of its own (the phone's, not the merchant's): it may report payments on
 * the accounts it watches and, for pid 0 (the operator's), pay any merchant's orders there. A V免签
 * client's key also signs its shop's merchant API (requests name no client: the key that
 * verifies attributes them), so keys are unique.
 */
export interface KeyedClient {
  id: number;
  kind: KeyedKind;
  /** The merchant it serves; 0: the operator's own client. */
  pid: number;
  name: string;
  key: string;
  /** The accounts its phone watches; empty: every account in its scope that no client is bound to. */
  accountIds: number[];
  createdAt: number;
  /** The app's clock (ms) in its last accepted V免签 heartbeat: a replayed heartbeat is never newer. */
  lastHeartT: number;
  /** Server time (s) of the last accepted V免签 heartbeat and of the last push; 0 = never. */
  lastHeartAt: number;
  lastPushAt: number;
}

/** An account as the directory holds it: useSeq and lastSeenAt move without a new read, so they are left out. */
export type DirectoryAccount = Omit<ChannelAccount, "useSeq" | "lastSeenAt">;
/** A keyed client as the directory holds it: its heartbeat and push stamps are left out. */
export type DirectoryClient = Omit<KeyedClient, "lastHeartT" | "lastHeartAt" | "lastPushAt">;

export interface Directory {
  accounts: readonly DirectoryAccount[];
  clients: readonly DirectoryClient[];
}

export interface NewKeyedClient {
  kind: KeyedKind;
  pid: number;
  name: string;
  key: string;
  accountIds: number[];
  now: number;
}

/** The report groups of every account, from all accounts and keyed clients (core/clients/watch.ts). */
export type ReportGroupRule = (accounts: ChannelAccount[], clients: KeyedClient[]) => Map<number, number>;

/** An SmsForwarder request's signed timestamp: accepted once per client. */
export interface NonceClaim {
  clientId: number;
  ts: number;
  seenAt: number;
  /** The client's timestamps below this can no longer pass the window: the claim forgets them. */
  forgetBefore: number;
}

export type AddKeyedClientResult = { kind: "added"; client: KeyedClient } | { kind: "refused"; reason: string };

export interface OrderFilter {
  pid?: number;
  status?: number;
  limit?: number;
  offset?: number;
}

export interface ChannelInput {
  pid: number;
  payType: string;
  code: string;
  name: string;
  qrcode: string;
  scheme?: string;
  remark?: string;
  minAmount?: number;
  maxAmount?: number;
  dayAmount?: number;
  sort?: number;
}

/** Every field of an account the operator sets; an add fills the ones not given with defaults. */
export type ChannelFields = Required<ChannelInput>;

/** What the account rule (core/channel-input.ts) reads besides the account, inside the unit. */
export interface ChannelFacts {
  /** The account before the change; null for an add. */
  current: ChannelAccount | null;
  /** Whether the merchant `pid` of the changed account exists (true for 0, shared). */
  merchantExists: boolean;
  /** The other accounts with the same pay type and code, whatever their owner. */
  sameCode: ChannelAccount[];
  /** How many orders used the account (0 for an add). */
  orders: number;
}

/** Add (id null) or edit one account atomically: merge, check with `check`, write. */
export interface SaveChannelUnit {
  id: number | null;
  patch: Partial<ChannelFields>;
  now: number;
  /** Returns why the account as it would be saved is refused, or null. */
  check: (next: ChannelFields, facts: ChannelFacts) => string | null;
}

export type SaveChannelResult = { kind: "saved"; account: ChannelAccount } | { kind: "refused"; reason: string } | { kind: "not_found" };
export type RemoveChannelResult = { kind: "removed"; account: ChannelAccount } | { kind: "used"; orders: number } | { kind: "not_found" };

export interface Store {
  /** The operator console: operators, sessions, setup links, the audit log (core/admin/store.ts). */
  readonly admin: AdminStore;
  /** Units only `xpay dev` calls (core/dev/store.ts). */
  readonly dev: DevStore;
  /** Operator alerts: channels, instances, their outbox, the facts the conditions read (core/alerts/store.ts). */
  readonly alerts: AlertStore;
  /** Income figures and the gauges of /metrics (core/stats/store.ts). */
  readonly stats: StatsStore;
  /** Operator-defined message rules and unrecognised payment-app messages (core/rules/store.ts). */
  readonly rules: RulesStore;
  /** The operator's read side: orders under a filter, an order's reports, what needs attention. */
  readonly browse: BrowseStore;
  /** The payable amounts orders hold on an account, by the allocator's own rule (core/slots/store.ts). */
  readonly slots: SlotStore;
  /** Monitoring clients' online stretches and their own reports (core/clients/store.ts). */
  readonly devices: DeviceStore;
  addMerchant(m: { pid?: number; name: string; secret: string; now: number }): Promise<Merchant>;
  getMerchant(pid: number): Promise<Merchant | null>;
  listMerchants(): Promise<Merchant[]>;
  updateMerchant(pid: number, patch: Partial<Pick<Merchant, "name" | "active" | "notifyMethod" | "rsaPublicKey" | "settings" | "secret">>): Promise<Merchant | null>;
  merchantOrderCounts(pid: number, todayStart: number): Promise<{ total: number; today: number; yesterday: number }>;

  getSettings(): Promise<Record<string, string>>;
  setSetting(key: string, value: string): Promise<void>;
  /** Stores the value only when the key is absent; returns the value now stored. */
  initSetting(key: string, value: string): Promise<string>;

  addChannel(c: ChannelInput & { now: number }): Promise<ChannelAccount>;
  getChannel(id: number): Promise<ChannelAccount | null>;
  listChannels(filter?: { pid?: number; usableBy?: number }): Promise<ChannelAccount[]>;
  updateChannel(id: number, patch: Partial<Pick<ChannelAccount, "enabled" | "lastSeenAt">>): Promise<ChannelAccount | null>;
  /** The operator's add or edit of an account, checked and written in one transaction. */
  saveChannel(unit: SaveChannelUnit): Promise<SaveChannelResult>;
  /** Deletes an account no order used; refuses (and changes nothing) when one did. */
  removeChannel(id: number): Promise<RemoveChannelResult>;

  createOrder(unit: CreateOrderUnit): Promise<CreateOrderResult>;
  /** Allocates an account for a pending order that has no pay type yet (the cashier's pick). */
  chooseOrderPayType(tradeNo: string, payType: string, now: number, allocate: AllocationRule): Promise<{ ok: true; order: Order } | { ok: false; reason: string }>;
  getOrder(tradeNo: string): Promise<Order | null>;
  getOrderByOutTradeNo(pid: number, outTradeNo: string): Promise<Order | null>;
  listOrders(filter: OrderFilter): Promise<Order[]>;
  /** pending -> closed, only while still pending and not expired. */
  closeOrder(tradeNo: string, now: number): Promise<boolean>;
  /** Writes status 4 for pending orders past expire_time; returns how many, and `tally` hears how many of each family and pay type. */
  expireOrders(now: number, tally?: (family: string, payType: string, count: number) => void): Promise<number>;

  payOrder(unit: PayUnit): Promise<PayResult>;

  /** Leases due rows in due order; with `fair`, only rows it admits (the others stay due, unleased); an admitted row another claimer leased first is left out. */
  claimDueNotifications(nowMs: number, limit: number, leaseMs: number, fair?: ClaimFilter): Promise<Notification[]>;
  recordNotificationAttempt(id: number, outcome: AttemptOutcome): Promise<void>;
  requeueNotification(tradeNo: string, nowMs: number): Promise<boolean>;
  getNotification(tradeNo: string): Promise<(Notification & { attempts_log: NotificationAttempt[] }) | null>;
  /** Newest first, under the outbox page's filter (`xpay notify list`'s too). */
  listNotifications(filter: NotificationFilter): Promise<Notification[]>;
  nextNotificationDue(): Promise<number | null>;
  /** Every merchant's delivery (a row for each merchant, zeros when it has none), by pid. */
  deliveryHealth(pid?: number): Promise<MerchantDelivery[]>;
  /** Undelivered notifications created since `sinceMs` that failed, grouped by merchant and last error, latest first. */
  /** `minAttempts`: only notifications failed that often or given up (the dashboard's "failing"; default 1). */
  failureGroups(o: { sinceMs: number; limit: number; minAttempts?: number }): Promise<FailureGroup[]>;
  /** Makes every undelivered notification of `pid` that failed at least once due now; returns how many. */
  requeueFailing(pid: number, nowMs: number): Promise<number>;

  /** With `nonce`: a timestamp the client used before stores nothing ({id: 0, duplicate: true, replayed: true}). */
  insertReport(r: ReportRecord, nonce?: NonceClaim): Promise<{ id: number; duplicate: boolean; replayed?: boolean }>;
  /** insertReport within its signer's daily bound: an unmatched report past it is counted, not stored (id null). */
  insertBoundedReport(r: ReportRecord, bound: ReportBound | null, nonce?: NonceClaim): Promise<{ id: number | null; duplicate: boolean; replayed?: boolean }>;
  /** The daily counters of unmatched reports from `sinceDay` on, with at least `minStored` stored; newest day first. */
  listReportBounds(filter: { sinceDay: number; minStored?: number; limit: number }): Promise<ReportBoundCount[]>;
  listReports(filter: { pid?: number; outcome?: string; limit?: number }): Promise<StoredReport[]>;
  settleReport(unit: SettleReportUnit): Promise<SettleReportResult>;
  /** The operator pays an order with an unmatched report: both change in one commit, or neither. */
  assignReport(unit: AssignReportUnit): Promise<AssignReportResult>;
  /** Stores a refused report within `limits` and counts it (core/refusals.ts). */
  insertRefusal(r: RefusalRecord, limits: RefusalLimits): Promise<void>;
  listRefusalCounts(filter: { limit?: number }): Promise<RefusalCount[]>;
  /** Deletes up to `batch` expired rows of each kind that nothing needs any more (core/retention.ts). */
  pruneHistory(batch: PruneBatch): Promise<PruneCounts>;

  /**
   * Upserts the client and marks these accounts seen (online) at `client.lastSeenAt`; with
   * `history`, also keeps its online stretch (store.devices): the beat extends the current one
   * when it comes at most `history.gap` seconds after the last, else starts a new one.
   */
  recordClientSeen(client: Omit<MonitorClient, "id">, accountIds: number[], history?: { gap: number }, o?: SeenOptions): Promise<void>;
  listClients(): Promise<MonitorClient[]>;

  /** Adds a keyed client (and its `client list` row); refuses an unknown merchant (0 is the operator), a name or key in use. */
  addKeyedClient(c: NewKeyedClient): Promise<AddKeyedClientResult>;
  listKeyedClients(): Promise<KeyedClient[]>;
  /**
   * Who watches which account, as the payment reports read it on every request: every account and
   * every keyed client, by id, without the stamps that move on every create, heartbeat or push. A
   * change made anywhere (another process, another instance) is in the next call's answer. The
   * answer is shared and frozen: do not change it.
   */
  directory(): Promise<Directory>;
  getKeyedClient(id: number): Promise<KeyedClient | null>;
  /** Replaces the accounts the client watches (empty: unbound); null when there is no such client. */
  bindKeyedClient(id: number, accountIds: number[]): Promise<KeyedClient | null>;
  /** Deletes the client and its `client list` row (with its online history); null when there is none. */
  removeKeyedClient(id: number): Promise<KeyedClient | null>;
  /** Recomputes every account's report group with `rule` in one transaction; returns how many changed. */
  refreshReportGroups(rule: ReportGroupRule): Promise<number>;
  /** Accepts a heartbeat only when `tMs` is newer than the client's last one (false: a replay). */
  acceptVmqHeart(id: number, tMs: number, now: number): Promise<boolean>;
  recordVmqPush(id: number, now: number): Promise<void>;

  /** Throws when the database cannot take a write (health check). */
  probeWrite(): Promise<void>;
  /** Checks the whole file (at most `maxErrors` findings), waiting at most `timeoutMs` for the answer. */
  checkIntegrity?(o: { maxErrors: number; timeoutMs: number }): Promise<IntegrityReport>;
  /** A consistent copy of the whole database at `path` (a new file). */
  backupTo(path: string): Promise<void>;
  /**
   * The store's own background work for a long-running server, stopped before close (SQLite:
   * WAL checkpoints on a thread of their own; PostgreSQL: the income rollup's fold, migration 039).
   * Short CLI commands never start it.
   */
  startBackground?(hooks: { onBeat(name: string): void; onError(message: string): void }): { stop(): Promise<void> };

  close(): void;
}

// The alerts' sub-port of the Store (`store.alerts`): coarse async units, engine-neutral SQL
// behind them. Reads of facts are one read each and take no write lock; every write (a pass's
// instance changes with its outbox rows and cursors, one attempt) is one short transaction.
import type { UnparsedMessage } from "../rules/store.ts";
import type { ReportBoundCount } from "../store.ts";
import type { AlertInstance, AlertMessage } from "./types.ts";

export type ChannelType = "webhook" | "telegram" | "dingtalk" | "feishu" | "wecom" | "serverchan" | "email";

export interface AlertChannel {
  id: number;
  name: string;
  type: ChannelType;
  /** Type-specific fields (channels/*); secrets included: never print this as it is (maskConfig). */
  config: Record<string, string>;
  enabled: boolean;
  createdAt: number;
}

/** What the state conditions read, in one pass (times in unix seconds). */
export interface AlertFacts extends StoredFacts {
  /**
   * The unrecognised notifications from a payment sender seen in the last hour, all merchants: the
   * rules' own table (core/rules/unparsed.ts fromSenders), read by the pass, not by readFacts.
   */
  unrecognised: UnparsedMessage[];
  /** Today's counters of the signers at the unmatched bound (core/report-bounds.ts), read by the pass. */
  atBound: ReportBoundCount[];
}

/** What readFacts reads from the gateway's own tables. */
export interface StoredFacts {
  /** Lists that held more rows than the query's limit: their conditions cannot tell what cleared. */
  truncated: ("clients" | "pendingAccounts" | "failingNotifications" | "failingMerchants" | "createFailures")[];
  clients: { id: number; kind: string; pid: number; name: string; lastSeenAt: number }[];
  /** Accounts with at least one pending, unexpired order. */
  pendingAccounts: { id: number; pid: number; name: string; payType: string; lastSeenAt: number; pending: number; oldestAt: number; tradeNo: string }[];
  /** Pending notifications with at least `minAttempts` failed attempts. */
  failingNotifications: { id: number; tradeNo: string; pid: number; attempts: number; createdAt: number; url: string; lastError: string; lastStatus: number | null }[];
  /** Per merchant: pending notifications that failed at least once, the oldest one's creation. */
  failingMerchants: { pid: number; failing: number; since: number; tradeNo: string }[];
  /** Of the failing merchants whose oldest failure is before `deliveredSince`, those with a delivery since then. */
  deliveredPids: number[];
  /** Orders that failed at creation since `createdSince`, by merchant and reason. */
  createFailures: { pid: number; reason: string; count: number; since: number; tradeNo: string }[];
}

export interface FactQuery {
  now: number;
  minAttempts: number;
  /** Unix ms (notification times are kept in ms). */
  deliveredSince: number;
  createdSince: number;
  /** Rows per list at most, so a pass stays cheap whatever piles up. */
  limit: number;
}

/** Reports and attempts written after the cursors: the event conditions' input. */
export interface AlertEvents {
  reports: { id: number; kind: string; pid: number | null; amount: number | null; payType: string; outcome: string; reason: string; tradeNo: string | null; createdAt: number; orderStatus: number | null; expireTime: number | null; paidAt: number | null; closedAt: number | null }[];
  givenUp: { notificationId: number; tradeNo: string; pid: number; attempts: number; lastError: string; lastStatus: number | null; at: number }[];
  /** Where the cursors stand after these rows (the newest row id of each source at read time). */
  cursors: { reports: number; attempts: number };
}

/** One pass's writes, applied in one transaction. */
export interface AlertPassUnit {
  instances: AlertInstance[];
  /** One outbox row per message and channel. */
  messages: { message: AlertMessage; channels: AlertChannel[] }[];
  cursors: { reports: number; attempts: number } | null;
  nowMs: number;
}

export interface ClaimedAlert {
  id: number;
  channelId: number;
  channelName: string;
  channelType: string;
  message: AlertMessage;
  attempts: number;
}

export interface AlertAttempt {
  attemptedAt: number; // ms
  durationMs: number;
  httpStatus: number | null;
  answer: string;
  error: string;
  ok: boolean;
}

export interface AlertHistoryRow {
  id: number;
  channelName: string;
  channelType: string;
  event: string;
  key: string;
  title: string;
  status: "pending" | "sent" | "failed";
  attempts: number;
  createdAt: number; // ms
  sentAt: number | null;
  nextAttemptAt: number;
  last: AlertAttempt | null;
}

export type AddAlertChannelResult = { kind: "added"; channel: AlertChannel } | { kind: "refused"; reason: string };

export interface AlertStore {
  addChannel(c: { name: string; type: ChannelType; config: Record<string, string>; now: number }): Promise<AddAlertChannelResult>;
  listChannels(): Promise<AlertChannel[]>;
  getChannel(name: string): Promise<AlertChannel | null>;
  /** Removes the channel; its pending messages are marked failed ("channel removed"), history stays. */
  removeChannel(name: string, nowMs: number): Promise<boolean>;

  readFacts(q: FactQuery): Promise<StoredFacts>;
  /** Rows after the stored cursors (null cursors: none yet; they start at the newest rows, history is not alerted). */
  readEvents(limit: number): Promise<AlertEvents>;
  /** Instances firing now or held back (state firing). */
  activeInstances(): Promise<AlertInstance[]>;
  /** The stored instances of these keys, whatever their state (the throttle reads resolved ones). */
  getInstances(keys: string[]): Promise<AlertInstance[]>;
  applyPass(unit: AlertPassUnit): Promise<void>;

  /** One outbox row for one channel, already leased to the caller (`alert test` sends it at once). */
  insertLeased(channel: AlertChannel, message: AlertMessage, nowMs: number, leaseMs: number): Promise<number>;
  /**
   * Leases due outbox rows in due order. With `fair`, at most `perChannel` due rows of each channel
   * are read (so the backlog of one channel never hides another's rows) and only those `admit`
   * takes (its channel has room) are leased; the rest stay due.
   */
  claimDue(nowMs: number, limit: number, leaseMs: number, fair?: { perChannel: number; admit(channelId: number): boolean }): Promise<ClaimedAlert[]>;
  recordAttempt(id: number, outcome: { attempt: AlertAttempt; status: "pending" | "sent" | "failed"; nextAttemptAt: number }): Promise<void>;
  history(filter: { limit: number }): Promise<AlertHistoryRow[]>;
  /** Deletes sent and failed messages (with their attempts) and ended instances older than the cut. */
  prune(beforeMs: number): Promise<number>;
}

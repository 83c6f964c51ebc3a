// What an alert is, as data. A condition (conditions.ts, events.ts) looks at facts and returns
// findings; the plan (plan.ts) turns findings into instance changes and messages; a message is
// rendered once (render.ts) and sent through every channel (channels/*), each with its own retries.

/** Every condition an operator can be alerted about; the first part of every dedupe key. */
export const CONDITIONS = [
  "client_silent",
  "account_offline",
  "notify_failing",
  "notify_given_up",
  "merchant_failing",
  "unmatched_report",
  "late_payment",
  "create_failures",
  "db_write",
  "unparsed_messages",
  "report_bound",
  "backup_failed",
] as const;
export type Condition = (typeof CONDITIONS)[number];

/** Event conditions fire once per event and never resolve (an unmatched report stays received). */
export const EVENT_CONDITIONS: ReadonlySet<Condition> = new Set(["notify_given_up", "unmatched_report", "late_payment"]);

/** Which merchant, account, order, client or report an alert is about (what exists of them). */
export interface AlertRefs {
  pid?: number;
  accountId?: number;
  tradeNo?: string;
  clientId?: number;
  reportId?: number;
}

/** One instance of a condition, as a condition function sees it now. */
export interface Finding {
  /** Dedupe key: `client_silent:client:12`. One instance fires once, however often it is found. */
  key: string;
  condition: Condition;
  /** One line: what happened. */
  title: string;
  /** A sentence or two with the numbers. */
  detail: string;
  /** Unix seconds: since when the condition holds (last heartbeat, first failure, the report). */
  since: number;
  refs: AlertRefs;
  /** The CLI command that shows more. */
  command: string;
}

export type MessageEvent = "firing" | "resolved" | "summary" | "test";

/** A rendered message, stored once per channel in the outbox; every channel builds its request from it. */
export interface AlertMessage {
  event: MessageEvent;
  /** Empty for a summary or a test. */
  condition: Condition | "";
  key: string;
  /** Short, for a subject line or a Server酱 title. */
  title: string;
  /** The whole plain text, title included as its first line. */
  text: string;
  /** Unix seconds; 0 for a test. */
  since: number;
  /** Unix ms when the message was made. */
  at: number;
  refs: AlertRefs;
  command: string;
  /** A summary: the alerts it stands for. */
  items?: { event: MessageEvent; condition: string; key: string; title: string }[];
}

/** The stored state of one dedupe key. */
export interface AlertInstance {
  key: string;
  condition: Condition;
  state: "firing" | "resolved" | "event";
  /** Whether the firing message of the current episode went out (false: held back by the throttle). */
  notified: boolean;
  openedAt: number;
  resolvedAt: number | null;
  /** Unix seconds of the last firing message; the throttle counts from it. */
  lastSentAt: number | null;
  /** Times the condition came back while its messages were held back. */
  flaps: number;
  finding: Finding;
}

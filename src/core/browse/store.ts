// The store's read side for the operator's views (console, CLI): orders under a filter, paged by
// keyset so page 500 costs what page 1 costs, and the rows an order's or a report's page shows.
import type { Notification, StoredReport } from "../store.ts";
import type { Order } from "../types.ts";

/** Where a page starts: the last row of the previous page (newest first). */
export interface OrderCursor {
  createdAt: number;
  tradeNo: string;
}

/** Every field narrows; none given lists every order. Times are unix seconds, `to` exclusive. */
export interface OrderQuery {
  /** As callers see it: 1 pending (not expired), 4 timed out (stored 4, or pending past expire_time). */
  status?: number;
  pid?: number;
  payType?: string;
  accountId?: number;
  from?: number;
  to?: number;
  /** Exact platform number, merchant number, or payable amount (cents): any of them matches. */
  search?: { tradeNo?: string; outTradeNo?: string; tradeAmount?: number };
  /** The payer's address as the order recorded it (clientip), exact. */
  clientIp?: string;
  /** The order amount (cents), both ends included. */
  amountMin?: number;
  amountMax?: number;
  /** Paid at or after / before (unix seconds, `paidTo` exclusive): only paid orders. */
  paidFrom?: number;
  paidTo?: number;
  after?: OrderCursor;
  limit: number;
  /** The clock that decides pending against timed out. */
  now: number;
}

/** The whole filter's figures (the orders list's line above the table). */
export interface OrderTotals {
  count: number;
  /** Sum of the orders' amounts, cents. */
  amount: number;
  paidCount: number;
  /** Sum of the paid orders' payable amounts (the money received), cents. */
  paidAmount: number;
}

/** An order's notification as a list shows it; orders without a notify_url have none. */
export interface NotificationState {
  tradeNo: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
}

export interface ReportQuery {
  outcome?: string;
  pid?: number;
  kind?: string;
  /** true: only reports carrying an amount (money); false: only those without (not a payment). */
  money?: boolean;
  /** Rows with a smaller id (older), for the next page. */
  beforeId?: number;
  /** Received at or after `from`, before `to` (unix seconds). */
  from?: number;
  to?: number;
  limit: number;
}

/** Orders a payment report could be assigned to (core/assign-report.ts's window): its pay type first, then nearest amount. */
export interface CandidateQuery {
  /** The report's merchant; none (a third-account watcher's report): every merchant's. */
  pid?: number;
  /** When the money arrived (unix seconds): created at or before it, ended no earlier than `at - window`. */
  at: number;
  window: number;
  /** The longest an order can be payable (order_ttl's upper bound): bounds the index range read. */
  maxLifetime: number;
  /** The reported amount in cents: candidates nearest to it come first. */
  amount: number;
  /** The report's pay type: orders of that type come before the others ("" when unknown). */
  payType: string;
  limit: number;
}

/** What needs the operator's eye; each list newest first, at most `limit` rows. */
export interface AttentionRows {
  /** Money received (an amount) that paid no order. */
  unmatchedReports: StoredReport[];
  /** Forwarded messages that were no payment (no amount: ant forest, red packets, money going out). */
  notPayments: StoredReport[];
  /** Given up, or still pending after several failed attempts. */
  failingNotifications: (Notification & { pid: number; lastError: string })[];
  /**
   * Money reported after expire_time that the match window still credited (core/browse/late.ts):
   * not an operator's 补单 or simulate-pay, nor an assignment of money reported in time.
   * `moneyAt`: when the money was reported (the paying report, else paid_at).
   */
  latePayments: (Order & { moneyAt: number })[];
  /** Status 5: no account could take the order. */
  creationFailures: Order[];
}

export interface BrowseStore {
  searchOrders(q: OrderQuery): Promise<Order[]>;
  /** Count and sums of every order under the filter (no paging). */
  orderTotals(q: Omit<OrderQuery, "after" | "limit">): Promise<OrderTotals>;
  /** The notifications of these orders (those that have one). */
  notificationStates(tradeNos: string[]): Promise<NotificationState[]>;
  getReport(id: number): Promise<StoredReport | null>;
  /** Reports that named or paid this order, oldest first. */
  reportsForOrder(tradeNo: string, limit: number): Promise<StoredReport[]>;
  searchReports(q: ReportQuery): Promise<StoredReport[]>;
  /** Unpaid orders with an account (pending or timed out) the report of CandidateQuery could pay. */
  assignCandidates(q: CandidateQuery): Promise<Order[]>;
  /** Rows since `since` (unix seconds); a notification counts as failing after `minAttempts` failures. */
  attention(o: { since: number; limit: number; minAttempts: number }): Promise<AttentionRows>;
}

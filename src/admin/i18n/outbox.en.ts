import type { outboxZh } from "./outbox.zh.ts";

export const outboxEn: Record<keyof typeof outboxZh, string> = {
  "outbox.nav": "Notifications",
  "outbox.title": "Merchant notifications",
  "outbox.intro": "Notifications to merchants (the outbox), newest first (as xpay notify list). Resend queues one at once; a running server sends it within a second.",
  "outbox.all": "All",
  "outbox.status_pending": "Pending",
  "outbox.status_delivered": "Delivered",
  "outbox.status_failed": "Given up",
  "outbox.col_order": "Order",
  "outbox.col_status": "Status",
  "outbox.col_attempts": "Attempts",
  "outbox.col_next": "Next attempt",
  "outbox.col_created": "Created",
  "outbox.col_url": "URL",
  "outbox.none": "No such notification.",
  "outbox.resend": "Resend",
  "outbox.resent": "The notification of order {trade_no} is queued again.",
  "outbox.not_found": "This order has no notification (an order without notify_url has none).",
  "outbox.shown": "The last {n} shown",
};

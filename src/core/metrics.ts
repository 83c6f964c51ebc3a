// What the core tells /metrics as it works: one call per event on the paths that already run
// (create, pay, expire, report, notification attempt, HTTP request). The Gateway holds a no-op
// until the server installs its Prometheus registry (server/metrics/registry.ts), so CLI commands
// never load prom-client and a create pays only for a counter increment.
import type { Order } from "./types.ts";

export type AttemptResult = "delivered" | "retry" | "failed";

export interface GatewayMetrics {
  /** A new order row (a created order, or status 5 when no account could take it). */
  orderCreated(order: Order): void;
  orderPaid(order: Order): void;
  ordersExpired(family: string, payType: string, count: number): void;
  /** A report stored with its outcome (matched, unmatched, duplicate, rejected, accepted). */
  report(kind: string, outcome: string): void;
  /** A payment-app notification no rule recognised was kept (core/rules/unparsed.ts). */
  unrecognisedMessage(): void;
  notificationAttempt(result: AttemptResult): void;
  /** `path` is the request's path (with its query); only its route family is recorded. */
  httpRequest(path: string, seconds: number): void;
}

const nothing = () => {};

export const noMetrics: GatewayMetrics = {
  orderCreated: nothing,
  orderPaid: nothing,
  ordersExpired: nothing,
  report: nothing,
  unrecognisedMessage: nothing,
  notificationAttempt: nothing,
  httpRequest: nothing,
};

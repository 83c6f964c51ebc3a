// What the test-mode buttons and `POST /dev/orders/{trade_no}/...` do. Each runs a path a real
// order takes, never a shortcut: paying is the settlement of a report (the unit a phone's report
// and `simulate-pay` run, so the merchant gets its family's real signed notification); failing is
// a report of a wrong amount, stored unmatched as a real one would be; expiring ends the order the
// way the expiry sweep does, only now.
import { choosePayType } from "../create-order.ts";
import type { Gateway } from "../gateway.ts";
import type { PaymentClaim } from "../report-match.ts";
import { settleOperatorPayment, settlePaymentReport } from "../settle-report.ts";
import { type Order, OrderStatus } from "../types.ts";

export type DevResult =
  | { ok: true; order: Order; outcome: string; reason: string; reportId: number | null; notificationQueued: boolean }
  | { ok: false; status: 404 | 409 | 422; reason: string; order?: Order };

/** Simulated reports are stored with this client name (`xpay report list` shows them). */
export const DEV_CLIENT = "dev";

const notFound = (tradeNo: string): DevResult => ({ ok: false, status: 404, reason: `no order ${tradeNo}` });

/**
 * An order still waiting for the payer's pick gets one first, as the cashier page would: the given
 * pay type, else alipay (every test merchant has one account of each type).
 */
async function withPayType(gw: Gateway, order: Order, payType: string | undefined): Promise<{ order: Order } | { reason: string }> {
  if (order.tradeAmount !== null || order.status !== OrderStatus.Pending) return { order };
  const picked = await choosePayType(gw, order, payType || "alipay");
  return picked.ok ? { order: picked.order } : { reason: picked.reason };
}

/** The payer paid exactly the amount asked: settled like a monitoring client's report. */
export async function devPay(gw: Gateway, tradeNo: string, o: { payType?: string } = {}): Promise<DevResult> {
  const found = await gw.store.getOrder(tradeNo);
  if (!found) return notFound(tradeNo);
  const ready = await withPayType(gw, found, o.payType);
  if ("reason" in ready) return { ok: false, status: 422, reason: ready.reason, order: found };
  const r = await settleOperatorPayment(gw, tradeNo, { apiTradeNo: `DEV${tradeNo}`, buyer: "test-payer" }, DEV_CLIENT);
  if (!r) return notFound(tradeNo);
  const order = (await gw.store.getOrder(tradeNo))!;
  if (r.outcome !== "matched") return { ok: false, status: 409, reason: r.reason, order };
  const queued = r.pay?.kind === "paid" && r.pay.notificationId !== null;
  return { ok: true, order, outcome: r.outcome, reason: r.reason, reportId: r.reportId, notificationQueued: queued };
}

/**
 * "Failure" in a gateway of this kind: no payment provider ever says "declined"; what goes wrong is
 * a payment that matches no order. The payer pays one cent more than asked: the report names the
 * order, its amount disagrees, it is stored unmatched with the reason, nothing is paid and the
 * merchant is not notified; the order stays pending until it times out. (A creation failure,
 * status 5, is tested by creating an order with a pay type that has no account, e.g. `bank`.)
 */
export async function devFail(gw: Gateway, tradeNo: string, o: { payType?: string } = {}): Promise<DevResult> {
  const found = await gw.store.getOrder(tradeNo);
  if (!found) return notFound(tradeNo);
  const merchant = await gw.store.getMerchant(found.pid);
  if (!merchant) return notFound(tradeNo);
  const ready = await withPayType(gw, found, o.payType);
  if ("reason" in ready) return { ok: false, status: 422, reason: ready.reason, order: found };
  const order = ready.order;
  if (order.status !== OrderStatus.Pending || order.tradeAmount === null) return { ok: false, status: 409, reason: `order ${tradeNo} is not pending; nothing reported`, order };
  const amount = order.tradeAmount + 1;
  const claim: PaymentClaim = { pid: order.pid, amount, payType: order.payType, channelCode: "", accountId: order.accountId, subAccount: "", orderId: order.tradeNo, outOrderId: "" };
  const raw = JSON.stringify({ simulated: "wrong amount", order_id: order.tradeNo, amount, pay_type: order.payType });
  const r = await settlePaymentReport(gw, { kind: "amount", pid: order.pid, client: DEV_CLIENT, raw, amount, payType: order.payType, channelCode: "", dedupeKey: null }, claim, [merchant]);
  const after = (await gw.store.getOrder(tradeNo))!;
  return { ok: true, order: after, outcome: r.outcome, reason: r.reason, reportId: r.reportId, notificationQueued: false };
}

/** The order's lifetime runs out now: timed out (status 4), as the expiry sweep would write it. */
export async function devExpire(gw: Gateway, tradeNo: string): Promise<DevResult> {
  const r = await gw.store.dev.expireOrderNow(tradeNo, gw.clock.now());
  if (r.kind === "not_found") return notFound(tradeNo);
  if (r.kind === "not_pending") return { ok: false, status: 409, reason: `order ${tradeNo} is not pending (status ${r.order.status}); nothing changed`, order: r.order };
  gw.log.event("dev.expire", { trade_no: tradeNo });
  return { ok: true, order: r.order, outcome: "expired", reason: "", reportId: null, notificationQueued: false };
}

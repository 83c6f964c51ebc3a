// `xpay simulate-pay`: the operator says an order was paid, and it is settled as a phone's report
// would be (settle-report.ts settleOperatorPayment). It moves money as far as the merchant can tell
// (a signed "paid" notification goes out), so it is audited like confirming a payment by hand:
// `order.simulate_pay`, the order's state before and after, and the operator's reason when given
// (`--reason`; `order confirm` is the one that requires one, for money the operator has checked).
import { type Actor, audit } from "./admin/audit.ts";
import type { Gateway } from "./gateway.ts";
import { orderState } from "./order-actions.ts";
import type { PaymentFacts } from "./pay-order.ts";
import { settleOperatorPayment } from "./settle-report.ts";
import type { SettleReportResult } from "./store.ts";

/** null: no such order. An outcome other than "matched" paid nothing and is not audited. */
export async function simulatePayAs(gw: Gateway, actor: Actor, tradeNo: string, facts: PaymentFacts, reason = ""): Promise<SettleReportResult | null> {
  const before = await gw.store.getOrder(tradeNo);
  const r = await settleOperatorPayment(gw, tradeNo, facts);
  if (!r || r.outcome !== "matched" || !before) return r;
  const after = (await gw.store.getOrder(tradeNo))!;
  const now = gw.clock.now();
  await audit(gw, {
    actor, action: "order.simulate_pay", target: `order:${tradeNo}`, reason: reason.trim(),
    before: orderState(before, now),
    after: { ...orderState(after, now), report_id: r.reportId, api_trade_no: facts.apiTradeNo ?? "", buyer: facts.buyer ?? "" },
  });
  return r;
}

// The pure matching rule's inputs for tests: accounts, orders and claims with defaults, and a fake
// view that lists what it is given, in the given order (the rule must not rely on the store's).
import type { MatchView, PaymentClaim } from "../../src/core/report-match.ts";
import type { ChannelAccount, Order } from "../../src/core/types.ts";

export const NOW = 1_800_000_000;
export const account = (id: number, o: Partial<ChannelAccount> = {}): ChannelAccount => ({
  id, pid: 0, payType: "alipay", code: "qr", name: `acc${id}`, remark: "", qrcode: "", scheme: "", minAmount: 0, maxAmount: 0, dayAmount: 0,
  sort: 0, enabled: true, useSeq: 0, lastSeenAt: 0, createdAt: 0, reportGroup: 0, ...o,
});
export const order = (tradeNo: string, o: Partial<Order> = {}): Order => ({
  tradeNo, pid: 1001, outTradeNo: `out-${tradeNo}`, family: "native", payType: "alipay", name: "n", amount: 1000, tradeAmount: 1000, accountId: 1,
  status: 1, failReason: "", notifyUrl: "", returnUrl: "", param: "", clientip: "", device: "", extra: {}, apiTradeNo: "", buyer: "",
  createdAt: NOW - 100, expireTime: NOW + 800, paidAt: null, closedAt: null, ...o,
});
export function view(accounts: ChannelAccount[], orders: Order[]): MatchView {
  return {
    accounts: (pid) => accounts.filter((a) => pid === null || a.pid === 0 || a.pid === pid),
    ordersByTradeAmount: (ids, amount) => orders.filter((o) => o.accountId !== null && ids.includes(o.accountId) && o.tradeAmount === amount),
    orderByTradeNo: (t) => orders.find((o) => o.tradeNo === t) ?? null,
    ordersByOutTradeNo: (pid, out) => orders.filter((o) => o.outTradeNo === out && (pid === null || o.pid === pid)),
  };
}
export const claim = (o: Partial<PaymentClaim> = {}): PaymentClaim => ({
  pid: 1001, amount: 1000, payType: "alipay", channelCode: "", accountId: null, subAccount: "", orderId: "", outOrderId: "", ...o,
});

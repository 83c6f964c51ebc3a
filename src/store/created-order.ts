// A created order built from what its insert wrote, for both adapters: the insert is not read back
// (on SQLite that read was a fifth of the insert's cost; PostgreSQL's create function returns only
// the columns it decided). test/store/create-row.test.ts and test/pg/create-function.test.ts hold
// the built order equal to the stored row, column defaults included.
import type { CreateOrderUnit } from "../core/store.ts";
import type { Order } from "../core/types.ts";

/** What the allocation decided for the row. */
export interface Placed {
  acc: number | null;
  ta: number | null;
  status: 1 | 5;
  reason: string;
}

export function insertedOrder(tradeNo: string, u: CreateOrderUnit, p: Placed): Order {
  const o = u.order;
  return {
    tradeNo, pid: o.pid, outTradeNo: o.outTradeNo, family: o.family, payType: o.payType, name: o.name, amount: o.amount,
    tradeAmount: p.ta, accountId: p.acc, status: p.status, failReason: p.reason, notifyUrl: o.notifyUrl, returnUrl: o.returnUrl,
    param: o.param, clientip: o.clientip, device: o.device, extra: { ...o.extra }, apiTradeNo: "", buyer: "",
    createdAt: u.now, expireTime: u.expireTime, paidAt: null, closedAt: null,
  };
}

// Migration 025 on both stores (test/store/order-rollup-025.test.ts, test/pg/order-rollup-025.test.ts):
// orders written before it (paid, on time and across a quarter hour, failed without an account,
// unpicked, closed) become the rollup's rows, so the figures after the upgrade are the figures
// counted from those orders before it.
import { expect } from "bun:test";
import type { Store } from "../../src/core/store.ts";

const T = 1_800_000_000; // a quarter hour
const order = (i: number, o: { pid?: number; account?: number | null; payType?: string; status: number; created: number; paid?: number; ta?: number }) => ({
  trade_no: `2027${String(i).padStart(16, "0")}`, pid: o.pid ?? 1001, out_trade_no: `M${i}`, family: "native", name: "x", amount: 1000,
  pay_type: o.payType ?? "alipay", account_id: o.account === undefined ? 1 : o.account, trade_amount: o.account === null ? null : (o.ta ?? 999),
  status: o.status, created_at: o.created, expire_time: o.created + 900, paid_at: o.paid ?? null,
});

export const HISTORY = {
  merchants: [1001, 1002].map((pid) => ({ pid, name: `Shop ${pid}`, secret: "s".repeat(32), created_at: 1 })),
  accounts: [
    { id: 1, pid: 0, pay_type: "alipay", code: "a", name: "A", qrcode: "q", created_at: 1 },
    { id: 2, pid: 1002, pay_type: "wxpay", code: "w", name: "W", qrcode: "q", created_at: 1 },
  ],
  orders: [
    order(1, { status: 2, created: T + 10, paid: T + 20, ta: 998 }),
    order(2, { status: 2, created: T + 890, paid: T + 905, ta: 997 }), // created in one quarter hour, paid in the next
    order(3, { status: 2, created: T + 100, paid: T + 3700, pid: 1002, account: 2, payType: "wxpay", ta: 500 }),
    order(4, { status: 5, created: T + 200, account: null, payType: "qqpay" }),
    order(5, { status: 1, created: T + 950, account: null, payType: "" }),
    order(6, { status: 3, created: T + 960, pid: 1002 }),
    order(7, { status: 4, created: T + 4000 }),
  ],
};

export async function expectBackfilled(store: Store): Promise<void> {
  expect(await store.stats.incomeByRange({ edges: [T, T + 900, T + 1800, T + 3600, T + 7200] })).toEqual([
    { paidCount: 1, paidAmount: 998, created: 4 },
    { paidCount: 1, paidAmount: 997, created: 2 },
    { paidCount: 0, paidAmount: 0, created: 0 },
    { paidCount: 1, paidAmount: 500, created: 1 },
  ]);
  const rows = await store.stats.incomeByAccount({ from: T, to: T + 7200 });
  expect(rows.sort((a, b) => a.pid - b.pid || (a.accountId ?? 0) - (b.accountId ?? 0) || a.payType.localeCompare(b.payType))).toEqual([
    { accountId: null, pid: 1001, payType: "", paidCount: 0, paidAmount: 0, created: 1 },
    { accountId: null, pid: 1001, payType: "qqpay", paidCount: 0, paidAmount: 0, created: 1 },
    { accountId: 1, pid: 1001, payType: "alipay", paidCount: 2, paidAmount: 1995, created: 3 },
    { accountId: 1, pid: 1002, payType: "alipay", paidCount: 0, paidAmount: 0, created: 1 },
    { accountId: 2, pid: 1002, payType: "wxpay", paidCount: 1, paidAmount: 500, created: 1 },
  ]);
}

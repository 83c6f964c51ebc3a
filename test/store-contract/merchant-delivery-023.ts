// Migration 023 on both stores (test/store/merchant-delivery-023.test.ts, test/pg/merchant-delivery-023.test.ts):
// a history written before it (deliveries and failures of two merchants) becomes each merchant's
// delivery row: last success, failing since (failures after the last success), last error.
import { expect } from "bun:test";
import type { MerchantDelivery } from "../../src/core/store.ts";

export const HISTORY = {
  merchants: [1001, 1002, 1003].map((pid) => ({ pid, name: `Shop ${pid}`, secret: "s".repeat(32), created_at: 1 })),
  orders: ["A", "B", "C", "D"].map((k, i) => ({
    trade_no: `2026${String(i).padStart(16, "0")}`, pid: k === "D" ? 1002 : 1001, out_trade_no: k, family: "native", name: "x", amount: 100, status: 2, created_at: 1, expire_time: 2,
  })),
  // [order index, status, delivered_at, attempts: [at, http, error, ack]]
  notifications: [
    [0, "delivered", 1000, [[900, 500, "", 0], [1000, 200, "", 1]]],
    [1, "pending", null, [[2000, null, "ECONNREFUSED", 0], [3000, 502, "", 0]]],
    [2, "failed", null, [[500, null, "old failure", 0]]],
    [3, "pending", null, [[1500, null, "timeout", 0]]],
  ] as [number, string, number | null, [number, number | null, string, number][]][],
};

export function expectBackfilled(rows: MerchantDelivery[]): void {
  expect(rows).toEqual([
    { pid: 1001, lastSuccessAt: 1000, failingSince: 2000, lastFailureAt: 3000, lastError: "HTTP 502", delivered: 1, pending: 1, failing: 2, givenUp: 1 },
    { pid: 1002, lastSuccessAt: null, failingSince: 1500, lastFailureAt: 1500, lastError: "timeout", delivered: 0, pending: 1, failing: 1, givenUp: 0 },
    { pid: 1003, lastSuccessAt: null, failingSince: null, lastFailureAt: null, lastError: "", delivered: 0, pending: 0, failing: 0, givenUp: 0 },
  ]);
}

// 测试支付: the operator creates a small order on ONE receiving account (the console's account
// pages and `xpay channel test-pay`), pays it with the real phone and watches it match end to end.
// The order is an ordinary order (same allocation, same cashier, same matching) pinned to the
// account, with three differences that keep it the operator's own:
// - no notify_url and no return_url: no merchant's shop is ever told about it (pay-order.ts
//   sends nothing for an empty notify_url), so a test cannot ship goods;
// - its out_trade_no starts with `xpay-test-`, its name says 测试支付, so lists show what it is;
// - the merchant is the account's owner, or for a shared account (pid 0) the lowest active
//   merchant: an order needs one, and the payment is real money into the operator's account,
//   so it is counted in that merchant's income like any paid order (docs/decisions/console-day.md).
// Audited as `account.test_pay` on the account.
import { type Actor, audit } from "./admin/audit.ts";
import { createOrder } from "./create-order.ts";
import type { Gateway } from "./gateway.ts";
import { readTypedYuan } from "./money.ts";
import type { ChannelAccount, Merchant, Order } from "./types.ts";

/** A test payment is small: at most ¥100.00 (the account's own min/max still apply). */
export const TEST_PAY_MAX = 10_000;
export const TEST_PAY_DEFAULT = "0.01";
export const TEST_PAY_PREFIX = "xpay-test-";

export type TestPayProblem = "not_found" | "disabled" | "amount" | "no_merchant" | "failed";
export type TestPayResult =
  | { ok: true; order: Order; account: ChannelAccount; merchant: Merchant }
  | { ok: false; problem: TestPayProblem; reason: string };

/** The amount as typed in yuan (0.01 - 100.00); a problem text otherwise. */
export function readTestAmount(input: string): { ok: true; cents: number } | { ok: false; reason: string } {
  const r = readTypedYuan("amount", input.trim(), { max: TEST_PAY_MAX, example: ["0.01", "1.00"] });
  return r.ok ? { ok: true, cents: r.cents } : { ok: false, reason: r.problem };
}

/** The merchant a test order on this account belongs to: its owner, or the lowest active merchant. */
async function testMerchant(gw: Gateway, a: ChannelAccount): Promise<Merchant | null> {
  if (a.pid > 0) {
    const m = await gw.store.getMerchant(a.pid);
    return m && m.active ? m : null;
  }
  const all = await gw.store.listMerchants();
  return all.filter((m) => m.active).sort((x, y) => x.pid - y.pid)[0] ?? null;
}

export async function createTestPayment(gw: Gateway, actor: Actor, accountId: number, amountText: string): Promise<TestPayResult> {
  const account = Number.isSafeInteger(accountId) && accountId > 0 ? await gw.store.getChannel(accountId) : null;
  if (!account) return { ok: false, problem: "not_found", reason: `no account with id ${accountId}` };
  if (!account.enabled) return { ok: false, problem: "disabled", reason: `account ${accountId} is disabled; enable it to test it` };
  const amount = readTestAmount(amountText);
  if (!amount.ok) return { ok: false, problem: "amount", reason: amount.reason };
  const merchant = await testMerchant(gw, account);
  if (!merchant) return { ok: false, problem: "no_merchant", reason: account.pid > 0 ? `the account's merchant ${account.pid} is missing or disabled` : "no active merchant: add one first (an order belongs to a merchant)" };
  const out = await createOrder(gw, merchant, {
    pid: merchant.pid, outTradeNo: `${TEST_PAY_PREFIX}${gw.clock.nowMs()}`, family: "native", payType: account.payType,
    name: `测试支付 · ${account.name}`.slice(0, 120), amount: amount.cents, notifyUrl: "", returnUrl: "", param: "", clientip: actor.ip, device: "pc", extra: {},
  }, { accountId: account.id });
  if (!out.ok) return { ok: false, problem: "failed", reason: out.reason };
  await audit(gw, {
    actor, action: "account.test_pay", target: `account:${account.id}`,
    after: { trade_no: out.order.tradeNo, pid: merchant.pid, amount: out.order.amount, trade_amount: out.order.tradeAmount ?? null, pay_type: account.payType },
  });
  return { ok: true, order: out.order, account, merchant };
}

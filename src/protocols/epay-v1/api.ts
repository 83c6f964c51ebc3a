// GET or POST /xpay/epay/api.php: merchant queries authenticated by `key` (the AppSecret) instead
// of a signature, as 彩虹易支付 SDKs call it (act=order is usually a GET with key in the query).
import { findMerchantOrder } from "../../core/find-order.ts";
import type { Gateway } from "../../core/gateway.ts";
import { startOfDay } from "../../core/ids.ts";
import type { Merchant } from "../../core/types.ts";
import { authGate, THROTTLED } from "../auth-gate.ts";
import { json } from "../http.ts";
import { type Params, readParams } from "../params.ts";
import { firstProblem } from "../schema.ts";
import { safeEqual } from "../signing.ts";
import { apiOrderFields, statusStyle, v1Fail } from "./codec.ts";
import { ApiParams } from "./schemas.ts";

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export async function apiPhp(gw: Gateway, request: Request): Promise<Response> {
  const gate = await authGate(gw, request);
  if (gate.blocked) return json(v1Fail(THROTTLED));
  const auth = await authenticateKey(gw, request);
  if (!auth.ok) {
    gate.failed();
    return json(v1Fail(auth.msg));
  }
  const { params: p, merchant } = auth;
  if (p.act === "query") return json(await accountInfo(gw, merchant));
  if (p.act === "order") return json(await oneOrder(gw, merchant, p));
  return json(await orderPage(gw, merchant, p));
}

/** The `key` (AppSecret) of the named merchant, compared in constant time. */
async function authenticateKey(gw: Gateway, request: Request): Promise<{ ok: true; params: Params; merchant: Merchant } | { ok: false; msg: string }> {
  const read = await readParams(request);
  if (!read.ok) return { ok: false, msg: read.reason };
  const p = read.params;
  const problem = firstProblem(ApiParams, p);
  if (problem) return { ok: false, msg: problem };
  // A banned merchant may still ask about itself (act=query answers active 0), so no activeMerchant.
  const merchant = await gw.store.getMerchant(Number(p.pid));
  if (!merchant || !safeEqual(p.key!, merchant.secret)) return { ok: false, msg: "unknown pid or wrong key" };
  return { ok: true, params: p, merchant };
}

async function accountInfo(gw: Gateway, merchant: Merchant) {
  const counts = await gw.store.merchantOrderCounts(merchant.pid, startOfDay(gw.clock.now()));
  return {
    code: 1,
    pid: merchant.pid,
    active: merchant.active ? 1 : 0,
    orders: counts.total,
    order_today: counts.today,
    order_lastday: counts.yesterday,
  };
}

async function oneOrder(gw: Gateway, merchant: Merchant, p: Params) {
  if (!p.trade_no && !p.out_trade_no) return v1Fail("missing parameter: trade_no or out_trade_no");
  const found = await findMerchantOrder(gw, merchant.pid, { tradeNo: p.trade_no, outTradeNo: p.out_trade_no });
  if (!found.ok) return v1Fail(found.reason);
  const order = found.order;
  const style = statusStyle((await gw.settings()).str("epay_status_style"));
  return { code: 1, msg: "success", ...apiOrderFields(order, gw.clock.now(), style) };
}

/** Newest first; a limit above MAX_LIMIT is served as MAX_LIMIT rather than refused, so an SDK with a
 * hard-coded page size keeps working. */
async function orderPage(gw: Gateway, merchant: Merchant, p: Params) {
  const page = Math.max(1, Number(p.page || 1));
  const limit = Math.min(MAX_LIMIT, Math.max(1, Number(p.limit || DEFAULT_LIMIT)));
  const orders = await gw.store.listOrders({ pid: merchant.pid, limit, offset: (page - 1) * limit });
  const style = statusStyle((await gw.settings()).str("epay_status_style"));
  const now = gw.clock.now();
  return { code: 1, msg: "success", page, limit, data: orders.map((o) => apiOrderFields(o, now, style)) };
}

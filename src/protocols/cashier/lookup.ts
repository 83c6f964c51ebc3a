// Finding the order a template call is about. The API is public (the payer's browser calls it, no
// signature), so the unguessable 20-digit order_id is the key; out_order_id + pid is the spec's
// second way for info, audio and status, while qrcode and pay-type take order_id only. Lookups
// that find nothing are logged and throttled per address (miss-gate.ts).
import type { Gateway } from "../../core/gateway.ts";
import type { Merchant, Order } from "../../core/types.ts";
import { type Params, readParams } from "../params.ts";
import { type ApiError, apiError, Code } from "./codec.ts";
import { MISS_LIMITED, missGate } from "./miss-gate.ts";

const ORDER_ID = /^[0-9A-Za-z_-]{1,64}$/;
const PID = /^\d{1,10}$/;
const INT32_MAX = 2_147_483_647;

export type Found = { ok: true; order: Order; merchant: Merchant | null; params: Params } | { ok: false; error: ApiError };

const notFound = (): Found => ({ ok: false, error: apiError(Code.NotFound, "订单不存在") });

export async function findOrder(gw: Gateway, request: Request, o: { orderIdOnly: boolean }): Promise<Found> {
  const read = await readParams(request);
  if (!read.ok) return { ok: false, error: apiError(Code.BadRequest, `参数错误：${read.reason}`) };
  const p = read.params;
  const gate = await missGate(gw, request);
  if (gate.blocked) return { ok: false, error: apiError(Code.TooMany, MISS_LIMITED) };
  const orderId = (p.order_id ?? "").trim();
  const outOrderId = (p.out_order_id ?? "").trim();
  let order: Order | null;
  if (orderId !== "") {
    order = ORDER_ID.test(orderId) ? await gw.store.getOrder(orderId) : null;
    if (!order) gate.missed("order_id", orderId);
  } else if (o.orderIdOnly) {
    return { ok: false, error: apiError(Code.BadRequest, "缺少参数 order_id") };
  } else if (outOrderId !== "") {
    const pid = (p.pid ?? "").trim();
    if (pid === "") return { ok: false, error: apiError(Code.BadRequest, "按 out_order_id 查询时必须同时提供 pid") };
    if (!PID.test(pid) || Number(pid) < 1 || Number(pid) > INT32_MAX) return { ok: false, error: apiError(Code.BadRequest, "参数 pid 必须是正整数") };
    order = outOrderId.length > 64 ? null : await gw.store.getOrderByOutTradeNo(Number(pid), outOrderId);
    if (!order) gate.missed("out_order_id", outOrderId, Number(pid));
  } else {
    return { ok: false, error: apiError(Code.BadRequest, "缺少参数 order_id（或 out_order_id 与 pid）") };
  }
  if (!order) return notFound();
  return { ok: true, order, merchant: await gw.store.getMerchant(order.pid), params: p };
}

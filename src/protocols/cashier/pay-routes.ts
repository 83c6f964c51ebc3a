// POST /api/order/qrcode, /pay-types and /pay-type: what the payer pays with. These take order_id
// only (never out_order_id + pid, which a stranger could guess), since they reveal the receiving
// account or allocate one.
import { choosePayType } from "../../core/create-order.ts";
import type { Gateway } from "../../core/gateway.ts";
import { checkPayType } from "../../core/order-input.ts";
import { effectiveStatus } from "../../core/order-state.ts";
import { type Order, OrderStatus } from "../../core/types.ts";
import { json } from "../http.ts";
import { type ApiError, apiError, Code, envelope, payTypeLogoUrl, payTypeText, qrcodeFields, qrImageUrl } from "./codec.ts";
import { findOrder } from "./lookup.ts";

const ENDED: Record<number, string> = { 2: "订单已支付", 3: "订单已关闭", 4: "订单已超时", 5: "订单创建失败" };

function notPayable(gw: Gateway, order: Order): ApiError | null {
  const status = effectiveStatus(order, gw.clock.now());
  return status === OrderStatus.Pending ? null : apiError(Code.Conflict, ENDED[status] ?? "订单不可支付");
}

export async function orderQrcode(gw: Gateway, request: Request): Promise<Response> {
  const found = await findOrder(gw, request, { orderIdOnly: true });
  if (!found.ok) return json(found.error, found.error.code);
  const { order } = found;
  const ended = notPayable(gw, order);
  if (ended) return json(ended, ended.code);
  if (order.payType === "" || order.accountId === null) return json(apiError(Code.Conflict, "请先选择支付方式"), Code.Conflict);
  const account = await gw.store.getChannel(order.accountId);
  if (!account) return json(apiError(Code.Unavailable, "收款账户不存在，请返回商户重新下单"), Code.Unavailable);
  return json(qrcodeFields(order, account, (text) => qrImageUrl(gw.baseUrlFor(request), text)));
}

/**
 * The pay types the merchant's enabled accounts (own or shared) can take for this amount, each with
 * its name and the gateway's own icon. Daily limits and free amount slots are left to the pick
 * itself, which answers with the reason.
 */
export async function orderPayTypes(gw: Gateway, request: Request): Promise<Response> {
  const found = await findOrder(gw, request, { orderIdOnly: true });
  if (!found.ok) return json(found.error, found.error.code);
  const { order } = found;
  const ended = notPayable(gw, order);
  if (ended) return json(ended, ended.code);
  const seen = new Set<string>();
  const list: { pay_type: string; pay_type_text: string; pay_type_logo: string }[] = [];
  const base = gw.baseUrlFor(request);
  for (const a of await gw.store.listChannels({ usableBy: order.pid })) {
    if (!a.enabled || seen.has(a.payType)) continue;
    if ((a.minAmount > 0 && order.amount < a.minAmount) || (a.maxAmount > 0 && order.amount > a.maxAmount)) continue;
    seen.add(a.payType);
    list.push({ pay_type: a.payType, pay_type_text: payTypeText(a.payType), pay_type_logo: payTypeLogoUrl(base, a.payType) });
  }
  return json(envelope(list));
}

/** The payer's pick for an order created without a pay type: the core allocates account and amount. */
export async function orderPayType(gw: Gateway, request: Request): Promise<Response> {
  const found = await findOrder(gw, request, { orderIdOnly: true });
  if (!found.ok) return json(found.error, found.error.code);
  const { order, params } = found;
  const payType = (params.pay_type ?? "").trim();
  if (payType === "") return json(apiError(Code.BadRequest, "缺少参数 pay_type"), Code.BadRequest);
  if (checkPayType(payType)) return json(apiError(Code.BadRequest, "不支持的支付方式"), Code.BadRequest);
  const ended = notPayable(gw, order);
  if (ended) return json(ended, ended.code);
  if (order.payType !== "") {
    if (order.payType === payType) return json(envelope(picked(order)));
    return json(apiError(Code.Conflict, "订单已选择支付方式，不能更改"), Code.Conflict);
  }
  const r = await choosePayType(gw, order, payType);
  if (!r.ok) {
    const status = r.reason === "order not found" ? Code.NotFound : r.reason.startsWith("order ") ? Code.Conflict : Code.Unavailable;
    return json(apiError(status, `该支付方式暂不可用：${r.reason}`), status);
  }
  return json(envelope(picked(r.order)));
}

function picked(order: Order) {
  return { order_id: order.tradeNo, pay_type: order.payType, pay_type_text: payTypeText(order.payType), amount: order.amount, trade_amount: order.tradeAmount ?? order.amount };
}

// GET or POST /createOrder: a shop (dujiaoka's Vpay driver, the V免签 demo) creates an order.
// sign = md5(payId + param + type + price + key) over the texts as received (dujiaoka sends
// price=10 for 10.00). The order is an ordinary xpay order of the signing client's merchant
// (family vmq): unique trade_amount across its accounts, the cashier page, simulate-pay. isHtml=1
// answers 302 to the cashier page; otherwise V免签's JSON data. The checks before the signature
// follow V免签's order and wording, so a shop's error log reads as it did.
import { createOrder, type CreateOutcome } from "../../core/create-order.ts";
import type { Gateway } from "../../core/gateway.ts";
import { parseYuan } from "../../core/money.ts";
import { effectiveStatus } from "../../core/order-state.ts";
import { deviceFrom } from "../../core/order-input.ts";
import { peerIp, redirect } from "../http.ts";
import { reply, VmqRoute } from "./auth.ts";
import { createText, Msg, ok, orderData, payTypeOf } from "./codec.ts";
import { vmqTargets } from "./targets.ts";

/** V免签's message for an order xpay could not place; the operator's reason follows where useful. */
function failureMessage(o: Extract<CreateOutcome, { ok: false }>): string {
  if (o.kind === "conflict") return Msg.PayIdExists;
  if (o.kind === "merchant") return Msg.Disabled;
  if (o.kind === "invalid") return `参数错误：${o.reason}`;
  if (o.reason.includes("online")) return Msg.MonitorOffline;
  if (o.reason.includes("no free payable amount")) return Msg.Overloaded;
  if (o.reason.startsWith("no enabled account")) return `${Msg.NotConfigured}（${o.reason}）`;
  return `订单创建失败：${o.reason}`;
}

export async function vmqCreateOrder(gw: Gateway, request: Request): Promise<Response> {
  const route = new VmqRoute(gw, request, null);
  const p = await route.open();
  if (p instanceof Response) return p;
  const refuse = (msg: string, reason = msg) => route.refuse({ msg, reason });
  const payId = p.payId ?? "";
  const type = p.type ?? "";
  const price = p.price ?? "";
  const param = p.param ?? "";
  if (payId === "") return refuse(Msg.NoPayId);
  if (type === "") return refuse(Msg.NoType);
  const payType = payTypeOf(type);
  if (!payType) return refuse(Msg.BadType);
  if (price === "") return refuse(Msg.NoPrice);
  const amount = parseYuan(price);
  if (amount === null) return refuse(/^-|^0*(\.0*)?$/.test(price) ? Msg.BadPrice : Msg.PriceFormat);
  if ((p.sign ?? "") === "") return refuse(Msg.NoSign);
  const client = await route.client(createText(payId, param, type, price), p.sign);
  if (!client) return refuse(Msg.BadCreateSign, "signature mismatch: sign = md5(payId + param + type + price + key)");
  const merchant = await gw.store.getMerchant(client.pid);
  if (!merchant?.active) return refuse(Msg.Disabled);
  // notifyUrl and returnUrl are not signed: the merchant's settings decide where they go (targets.ts).
  const targets = await vmqTargets(gw, merchant, { notifyUrl: p.notifyUrl ?? "", returnUrl: p.returnUrl ?? "" });
  if (!targets.ok) return reply({ code: -1, msg: `参数错误：${targets.reason}`, data: null });

  const outcome = await createOrder(gw, merchant, {
    pid: merchant.pid,
    outTradeNo: payId,
    family: "vmq",
    payType,
    name: payId,
    amount,
    notifyUrl: targets.notifyUrl,
    returnUrl: targets.returnUrl,
    param,
    clientip: peerIp(request, undefined, gw.proxyHops),
    device: deviceFrom("", request.headers.get("user-agent") ?? ""),
    // Which key signs its notification, and the price text the shop will be told it sent.
    extra: { vmq_client: String(client.id), vmq_price: price },
  });
  if (!outcome.ok) return reply({ code: -1, msg: failureMessage(outcome), data: null });
  if (p.isHtml === "1") return redirect(gw.cashierUrl(outcome.order.tradeNo, request));
  const ttl = (await gw.settings()).int("order_ttl");
  return reply(ok(orderData(outcome.order, outcome.account, ttl, effectiveStatus(outcome.order, gw.clock.now()))));
}

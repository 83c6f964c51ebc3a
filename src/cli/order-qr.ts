// `xpay order inspect TRADE_NO --qr`: the order's payment QR drawn in the terminal, so a developer
// simulating payments can scan it with a phone (or check which code a payer was shown) without a
// browser. The code is the one the cashier page shows: the allocated account's static code. An
// order still waiting for the payer's pick has none, so its cashier URL is drawn instead.
import qrcodeTerminal from "qrcode-terminal";
import type { Gateway } from "../core/gateway.ts";
import { formatYuan } from "../core/money.ts";
import { effectiveStatus } from "../core/order-state.ts";
import { type Order, OrderStatus } from "../core/types.ts";

/** Half-block characters: one text row holds two QR rows, so the code fits an 80x24 terminal. */
export function terminalQr(text: string): string {
  let out = "";
  qrcodeTerminal.generate(text, { small: true }, (s) => {
    out = s;
  });
  return out;
}

export interface OrderQr {
  /** What the QR encodes. */
  text: string;
  /** One line telling what to do with it. */
  caption: string;
}

export async function orderQr(gw: Gateway, order: Order): Promise<OrderQr> {
  const account = order.accountId === null ? null : await gw.store.getChannel(order.accountId);
  const status = effectiveStatus(order, gw.clock.now());
  const note = status === OrderStatus.Pending ? "" : ` (order status ${status}: not payable now)`;
  if (!account?.qrcode) {
    return { text: gw.cashierUrl(order.tradeNo), caption: `cashier page: the payer picks a pay type there${note}` };
  }
  const pay = formatYuan(order.tradeAmount ?? order.amount);
  return { text: account.qrcode, caption: `pay exactly ¥${pay} with ${order.payType} to account #${account.id} ${account.name}${note}` };
}

export async function printOrderQr(gw: Gateway, order: Order, write: (line: string) => void = console.log): Promise<void> {
  const qr = await orderQr(gw, order);
  write(terminalQr(qr.text));
  write(qr.caption);
  write(qr.text);
}

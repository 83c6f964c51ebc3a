// What a compatibility protocol hands the merchant to show the payer. xpay collects on static
// personal QR codes and tells orders apart by their unique trade_amount, so an account's QR may be
// shown outside the cashier page only when the payer is asked to pay exactly the order's amount;
// otherwise the payer must see the cashier page, which shows the adjusted amount.
import type { ChannelAccount, Order } from "../core/types.ts";

export interface PayTarget {
  /** The account's QR content when it is safe to show it directly, else null. */
  qrcode: string | null;
  /** The account's app-launch scheme when it is safe to use, else null. */
  scheme: string | null;
}

export function payTarget(order: Order, account: ChannelAccount | null): PayTarget {
  const exact = account !== null && order.tradeAmount !== null && order.tradeAmount === order.amount;
  return {
    qrcode: exact && account.qrcode ? account.qrcode : null,
    scheme: exact && account.scheme ? account.scheme : null,
  };
}

// The accounts a V免签 client speaks for: the WeChat and Alipay accounts its merchant can use
// (its own and shared ones), narrowed to the ones its phone watches when the operator bound it
// (`client add-vmq --account`). A push names only a pay type, so a bound client's push is
// matched on its one account of that type; an unbound one on every account of that type.
import type { Gateway } from "../../core/gateway.ts";
import type { VmqClient } from "../../core/store.ts";
import type { ChannelAccount } from "../../core/types.ts";

export const VMQ_PAY_TYPES = ["wxpay", "alipay"] as const;

export async function clientAccounts(gw: Gateway, client: VmqClient, payType?: string): Promise<ChannelAccount[]> {
  const usable = await gw.store.listChannels({ usableBy: client.pid });
  return usable.filter(
    (a) =>
      (payType ? a.payType === payType : (VMQ_PAY_TYPES as readonly string[]).includes(a.payType)) &&
      (client.accountIds.length === 0 || client.accountIds.includes(a.id)),
  );
}

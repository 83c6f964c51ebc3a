// The accounts a V免签 client speaks for: the WeChat and Alipay accounts it watches
// (core/clients/watch.ts): the ones it is bound to, or, unbound, every such account its merchant
// can use that no client is bound to. A push names only a pay type: the report groups keep the
// payable amounts of those accounts apart, so it still means one order.
import { keyedReporter, reporterAccounts } from "../../core/clients/reporter.ts";
import type { Gateway } from "../../core/gateway.ts";
import type { DirectoryAccount, DirectoryClient } from "../../core/store.ts";

export { VMQ_PAY_TYPES } from "../../core/clients/watch.ts";

export async function clientAccounts(gw: Gateway, client: DirectoryClient, payType?: string): Promise<DirectoryAccount[]> {
  return (await reporterAccounts(gw, keyedReporter(client))).filter((a) => !payType || a.payType === payType);
}

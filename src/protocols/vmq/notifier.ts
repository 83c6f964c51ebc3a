// How a paid vmq order tells its shop: GET notifyUrl?payId&param&type&price&reallyPrice&sign,
// acknowledged only by the body "success" (V免签 compares the whole body), retried on xpay's
// schedule through the outbox where V免签 tried once. The key is the one of the client that
// created the order (order.extra.vmq_client), looked up at send time: a client whose key the
// operator replaced signs with the new one, a removed client signs nothing.
import type { FamilyNotifier } from "../../core/families.ts";
import type { Store } from "../../core/store.ts";
import { notificationFields, returnFields, withPaidSign } from "./codec.ts";

export function vmqNotifier(store: Pick<Store, "getKeyedClient">): FamilyNotifier {
  const keyOf = (ctx: { key?: string }) => {
    // deliver and returnUri stop before signing when signingKey answers null; never sign with "".
    if (!ctx.key) throw new Error("vmq notification without its client's key");
    return ctx.key;
  };
  return {
    family: "vmq",
    notificationParams: notificationFields,
    method: () => "GET",
    sign: (params, ctx) =>
      withPaidSign({ payId: params.payId ?? "", param: params.param ?? "", type: params.type ?? "", price: params.price ?? "", reallyPrice: params.reallyPrice ?? "" }, keyOf(ctx)),
    // A trailing newline (echo "success";) is tolerated; "success: order 1 failed" is not.
    isAcknowledged: (body) => body.trim() === "success",
    timeoutMs: 30_000,
    returnParams: (order, ctx) => withPaidSign(returnFields(order), keyOf(ctx)),
    signingKey: async (order) => {
      const id = Number(order.extra.vmq_client);
      if (!Number.isSafeInteger(id) || id <= 0) return null;
      return (await store.getKeyedClient(id))?.key ?? null;
    },
  };
}

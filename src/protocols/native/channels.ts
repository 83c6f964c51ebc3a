// POST /xpay/user-channels
import type { Gateway } from "../../core/gateway.ts";
import { json } from "../http.ts";
import { authenticate } from "./auth.ts";
import { ok } from "./codec.ts";
import { ChannelsParams } from "./schemas.ts";

export async function userChannels(gw: Gateway, request: Request): Promise<Response> {
  const auth = await authenticate(gw, request, ChannelsParams);
  if (!auth.ok) return json(auth.error);
  const accounts = await gw.store.listChannels({ usableBy: auth.merchant.pid });
  return json(
    ok(
      accounts
        .filter((a) => a.enabled)
        .map((a) => ({
          id: a.id,
          name: a.name,
          code: a.code,
          pay_type: a.payType,
          remark: a.remark,
          min_amount: a.minAmount,
          max_amount: a.maxAmount,
          day_amount: a.dayAmount,
        })),
    ),
  );
}

import { activeMerchant } from "../../core/create-order.ts";
import type { Gateway } from "../../core/gateway.ts";
import type { Merchant } from "../../core/types.ts";
import { authGate, THROTTLED } from "../auth-gate.ts";
import { type Params, type ParamsResult, readParams } from "../params.ts";
import { firstProblem, type ParamSchema } from "../schema.ts";
import { verifyV1 } from "./codec.ts";

export type V1Authenticated = { ok: true; params: Params; merchant: Merchant } | { ok: false; msg: string; throttled?: true };

/**
 * Schema, merchant and the MD5 signature over every parameter the request carried (read by
 * `reader`: submit.php has its own rule for where the fields are). Refusals count per address.
 */
export async function authenticateV1(gw: Gateway, request: Request, schema: ParamSchema, reader: (r: Request) => Promise<ParamsResult> = readParams): Promise<V1Authenticated> {
  const gate = await authGate(gw, request);
  if (gate.blocked) return { ok: false, msg: THROTTLED, throttled: true };
  const result = await check(gw, await reader(request), schema);
  if (!result.ok) gate.failed();
  return result;
}

async function check(gw: Gateway, read: ParamsResult, schema: ParamSchema): Promise<V1Authenticated> {
  if (!read.ok) return { ok: false, msg: read.reason };
  const problem = firstProblem(schema, read.params);
  if (problem) return { ok: false, msg: problem };
  const m = await activeMerchant(gw, Number(read.params.pid));
  if (!m.ok) return { ok: false, msg: m.reason };
  if (!verifyV1(read.params, m.merchant.secret)) {
    return { ok: false, msg: "signature mismatch: sign = md5(sorted non-empty k=v joined by &, without sign and sign_type, + key), over every parameter sent" };
  }
  return { ok: true, params: read.params, merchant: m.merchant };
}

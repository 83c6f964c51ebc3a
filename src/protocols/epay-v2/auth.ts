// The two directions of V2 trust: requests verified with the merchant public key inside the
// timestamp window, responses signed with the platform private key. A caller who has not
// authenticated gets an unsigned `{code: -1, msg}`: the platform key never signs a reply to a
// stranger, so no text a stranger chose (a parameter name echoed in `msg`) is ever signed.
import { activeMerchant } from "../../core/create-order.ts";
import type { Gateway } from "../../core/gateway.ts";
import { ensurePlatformKeys } from "../../core/platform-keys.ts";
import type { Merchant } from "../../core/types.ts";
import { authGate, THROTTLED } from "../auth-gate.ts";
import { json } from "../http.ts";
import { type Params, readParams } from "../params.ts";
import { firstProblem, type ParamSchema } from "../schema.ts";
import { rsaVerify } from "../signing.ts";
import { checkTimestamp } from "../timestamp.ts";
import { AmbiguousSignature, type Fields, signV2, v2Fail } from "./codec.ts";

export type V2Authenticated = { ok: true; params: Params; merchant: Merchant } | { ok: false; msg: string; throttled?: true };

export async function authenticateV2(gw: Gateway, request: Request, schema: ParamSchema): Promise<V2Authenticated> {
  const gate = await authGate(gw, request);
  if (gate.blocked) return { ok: false, msg: THROTTLED, throttled: true };
  const r = await check(gw, request, schema);
  if (!r.ok) gate.failed();
  return r;
}

async function check(gw: Gateway, request: Request, schema: ParamSchema): Promise<V2Authenticated> {
  const read = await readParams(request);
  if (!read.ok) return { ok: false, msg: read.reason };
  const p = read.params;
  const problem = firstProblem(schema, p);
  if (problem) return { ok: false, msg: problem };
  const m = await activeMerchant(gw, Number(p.pid));
  if (!m.ok) return { ok: false, msg: m.reason };
  if (!m.merchant.rsaPublicKey) return { ok: false, msg: "this merchant has no RSA public key; the operator creates one with `xpay keygen --pid P` before V2 can be used" };
  if (!rsaVerify(p, m.merchant.rsaPublicKey)) {
    return { ok: false, msg: "signature mismatch: sign = Base64 RSA-SHA256 (merchant private key) over sorted non-empty k=v joined by &, without sign and sign_type" };
  }
  // Checked after the signature, so only a genuine request learns about the clock window.
  const late = checkTimestamp(p.timestamp, gw.clock.now(), (await gw.settings()).int("timestamp_window"));
  if (late) return { ok: false, msg: late };
  return { ok: true, params: p, merchant: m.merchant };
}

/** The answer to a caller who did not authenticate: never signed. */
export function v2Refusal(msg: string): Response {
  return json(v2Fail(msg));
}

/**
 * A response to an authenticated merchant, signed over exactly its fields. Fields that cannot be
 * signed unambiguously (a value holding `&key=`) are not signed: a failure goes out unsigned, and a
 * success becomes an unsigned failure that says why (the SDK would refuse it unsigned anyway).
 */
export async function v2Json(gw: Gateway, fields: Fields): Promise<Response> {
  const { privateKey } = await ensurePlatformKeys(gw.store);
  try {
    return json(signV2(fields, privateKey, gw.clock.now()));
  } catch (e) {
    if (!(e instanceof AmbiguousSignature)) throw e;
    if (fields.code !== 0) return json(fields);
    return json(v2Fail("this order cannot be answered over V2: its out_trade_no, name, param or clientip contains key=value text after an ampersand, which the platform signature cannot cover unambiguously"));
  }
}

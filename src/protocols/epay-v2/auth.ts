// The two directions of V2 trust: requests verified with the merchant public key inside the
// timestamp window, responses signed with the platform private key.
import { activeMerchant } from "../../core/create-order.ts";
import type { Gateway } from "../../core/gateway.ts";
import { ensurePlatformKeys } from "../../core/platform-keys.ts";
import type { Merchant } from "../../core/types.ts";
import { json } from "../http.ts";
import { type Params, readParams } from "../params.ts";
import { firstProblem, type ParamSchema } from "../schema.ts";
import { rsaVerify } from "../signing.ts";
import { checkTimestamp } from "../timestamp.ts";
import { type Fields, signV2 } from "./codec.ts";

export type V2Authenticated = { ok: true; params: Params; merchant: Merchant } | { ok: false; msg: string };

export async function authenticateV2(gw: Gateway, request: Request, schema: ParamSchema): Promise<V2Authenticated> {
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

/** Every V2 JSON response, failures included, is signed over exactly its fields. */
export async function v2Json(gw: Gateway, fields: Fields): Promise<Response> {
  const { privateKey } = await ensurePlatformKeys(gw.store);
  return json(signV2(fields, privateKey, gw.clock.now()));
}

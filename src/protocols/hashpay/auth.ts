// The hash protocol's gate. The spec has failures carry a `hash`, but hashing a reply to a caller
// who has not proven the AppSecret would hand strangers md5(text + secret) for texts they choose
// (an echoed parameter name) or know (a fixed error): a forgery and offline-guessing oracle. So
// every refusal before the hash verifies has `hash` empty; only an authenticated caller, who holds
// the secret already, gets hashed errors.
import type { Gateway } from "../../core/gateway.ts";
import type { Merchant } from "../../core/types.ts";
import { authGate, THROTTLED } from "../auth-gate.ts";
import { type Params, readParams } from "../params.ts";
import { firstProblem, type ParamSchema } from "../schema.ts";
import { ErrCode, type Fields, hashFail, verifyHash } from "./codec.ts";

export type HashAuthenticated = { ok: true; params: Params; merchant: Merchant } | { ok: false; body: Fields };

const BAD_HASH = "hash mismatch: hash = md5(sorted non-empty k=v joined by &, without hash, + AppSecret), over every field sent";

/**
 * JSON (by its leading `{`, whatever the content type; numbers allowed) or form parameters, the
 * merchant, the `hash` over every parameter sent, then the schema. Refusals count per address.
 */
export async function authenticateHash(gw: Gateway, request: Request, schema: ParamSchema): Promise<HashAuthenticated> {
  const gate = await authGate(gw, request);
  if (gate.blocked) return { ok: false, body: hashFail(ErrCode.TooMany, THROTTLED, null) };
  const r = await check(gw, request);
  if (!r.ok) {
    gate.failed();
    return r;
  }
  const problem = firstProblem(schema, r.params);
  if (problem) return { ok: false, body: hashFail(ErrCode.BadRequest, problem, r.merchant.secret) };
  return r;
}

async function check(gw: Gateway, request: Request): Promise<HashAuthenticated> {
  const read = await readParams(request);
  if (!read.ok) return { ok: false, body: hashFail(ErrCode.BadRequest, read.reason, null) };
  const p = read.params;
  const merchant = /^\d{1,10}$/.test(p.appid ?? "") ? await gw.store.getMerchant(Number(p.appid)) : null;
  if (!merchant) return { ok: false, body: hashFail(ErrCode.Forbidden, p.appid ? "unknown merchant (appid)" : "missing parameter: appid", null) };
  if (!merchant.active) return { ok: false, body: hashFail(ErrCode.Forbidden, "merchant is disabled", null) };
  if (!verifyHash(p, merchant.secret)) return { ok: false, body: hashFail(ErrCode.BadHash, p.hash ? BAD_HASH : "missing parameter: hash", null) };
  return { ok: true, params: p, merchant };
}

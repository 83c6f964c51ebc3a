import type { Gateway } from "../../core/gateway.ts";
import type { Merchant } from "../../core/types.ts";
import { type Params, readParams } from "../params.ts";
import { firstProblem, type ParamSchema } from "../schema.ts";
import { ErrCode, type Fields, hashFail, verifyHash } from "./codec.ts";

export type HashAuthenticated = { ok: true; params: Params; merchant: Merchant } | { ok: false; body: Fields };

/**
 * JSON (by its leading `{`, whatever the content type; numbers allowed) or form parameters, the
 * merchant, then the `hash` over every parameter sent. The merchant is looked up first so that
 * even a parameter error comes back with a `hash` the client can check.
 */
export async function authenticateHash(gw: Gateway, request: Request, schema: ParamSchema): Promise<HashAuthenticated> {
  const read = await readParams(request);
  if (!read.ok) return { ok: false, body: hashFail(ErrCode.BadRequest, read.reason, null) };
  const p = read.params;
  const pid = Number(p.appid);
  const merchant = /^\d{1,10}$/.test(p.appid ?? "") ? await gw.store.getMerchant(pid) : null;
  const secret = merchant?.secret ?? null;
  const problem = firstProblem(schema, p);
  if (problem) return { ok: false, body: hashFail(ErrCode.BadRequest, problem, secret) };
  if (!merchant) return { ok: false, body: hashFail(ErrCode.Forbidden, "unknown merchant (appid)", null) };
  if (!merchant.active) return { ok: false, body: hashFail(ErrCode.Forbidden, "merchant is disabled", secret) };
  if (!verifyHash(p, merchant.secret)) {
    return { ok: false, body: hashFail(ErrCode.BadHash, "hash mismatch: hash = md5(sorted non-empty k=v joined by &, without hash, + AppSecret), over every field sent", secret) };
  }
  return { ok: true, params: p, merchant };
}

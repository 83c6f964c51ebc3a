import { activeMerchant } from "../../core/create-order.ts";
import type { Gateway } from "../../core/gateway.ts";
import type { Merchant } from "../../core/types.ts";
import { authGate, THROTTLED } from "../auth-gate.ts";
import { type Params, readParams } from "../params.ts";
import { firstProblem, type ParamSchema } from "../schema.ts";
import { Code, type Envelope, fail, verifyNative } from "./codec.ts";

export type Authenticated = { ok: true; params: Params; merchant: Merchant } | { ok: false; error: Envelope };

/** Parameters, schema, merchant and MD5 signature over every parameter the request carried. */
export async function authenticate(gw: Gateway, request: Request, schema: ParamSchema): Promise<Authenticated> {
  const gate = await authGate(gw, request);
  if (gate.blocked) return { ok: false, error: fail(Code.TooMany, THROTTLED) };
  const r = await check(gw, request, schema);
  if (!r.ok) gate.failed();
  return r;
}

async function check(gw: Gateway, request: Request, schema: ParamSchema): Promise<Authenticated> {
  const read = await readParams(request);
  if (!read.ok) return { ok: false, error: fail(Code.BadRequest, read.reason) };
  const problem = firstProblem(schema, read.params);
  if (problem) return { ok: false, error: fail(Code.BadRequest, problem) };
  const m = await activeMerchant(gw, Number(read.params.pid));
  if (!m.ok) return { ok: false, error: fail(Code.Forbidden, m.reason) };
  if (!verifyNative(read.params, m.merchant.secret)) {
    return { ok: false, error: fail(Code.BadSign, "signature mismatch: sign = md5(sorted non-empty k=v joined by & + AppSecret), over every parameter sent") };
  }
  return { ok: true, params: read.params, merchant: m.merchant };
}

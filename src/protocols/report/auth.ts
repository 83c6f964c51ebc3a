// The gate every report passes: readable parameters, a known merchant (or the third-account
// secret), the schema, the timestamp window and the MD5 signature. A refused report is still
// stored (outcome rejected) so the operator can see why a phone's reports go nowhere, within the
// fixed bounds of core/refusals.ts (an outsider can send any number of them).
import type { Gateway } from "../../core/gateway.ts";
import { recordRefusal } from "../../core/refusals.ts";
import type { ReportRecord } from "../../core/store.ts";
import type { Merchant } from "../../core/types.ts";
import { authGate, THROTTLED } from "../auth-gate.ts";
import { json, peerIp } from "../http.ts";
import { type Params, readParams } from "../params.ts";
import { firstProblem, type ParamSchema } from "../schema.ts";
import { checkTimestamp } from "../timestamp.ts";
import { BAD_SIGN_HELP, fail, rawOf, type ReportEnvelope, ReportCode, verifyReport } from "./codec.ts";

export type Accepted = { ok: true; params: Params; merchant: Merchant | null } | { ok: false; response: Response };

export function reply(e: ReportEnvelope): Response {
  return json(e, e.code);
}

/** Stores the refused report (counted per client address when `request` is given) and answers with its non-200 code. */
export async function reject(gw: Gateway, kind: ReportRecord["kind"], pid: number | null, params: Params | null, code: number, reason: string, request?: Request): Promise<Response> {
  const p = params ?? {};
  await recordRefusal(gw, {
    kind, pid, source: request ? peerIp(request, undefined, gw.proxyHops) : "", client: p.client_name ?? p.account ?? p.from ?? "",
    raw: params ? rawOf(params) : "(unreadable request)", payType: p.pay_type ?? "", channelCode: p.channel_code ?? "", reason,
  });
  gw.log.event("report", { kind, pid, outcome: "rejected", reason });
  return reply(fail(code, reason));
}

/**
 * `pidText` is the path's {pid}, or null for the third-account routes (operator secret). Refusals
 * count per client address; an address over `auth_fail_limit` is answered 429 and nothing of its
 * request is stored (a flood of bad reports costs its sender, not the database).
 */
export async function accept(gw: Gateway, request: Request, kind: ReportRecord["kind"], pidText: string | null, schema: ParamSchema): Promise<Accepted> {
  const gate = await authGate(gw, request);
  if (gate.blocked) {
    const res = reply(fail(ReportCode.TooMany, THROTTLED));
    res.headers.set("retry-after", String(gate.retryAfter));
    return { ok: false, response: res };
  }
  const r = await check(gw, request, kind, pidText, schema);
  if (!r.ok) gate.failed();
  return r;
}

async function check(gw: Gateway, request: Request, kind: ReportRecord["kind"], pidText: string | null, schema: ParamSchema): Promise<Accepted> {
  const pid = pidText !== null && /^\d{1,10}$/.test(pidText) ? Number(pidText) : null;
  const read = await readParams(request);
  if (!read.ok) return { ok: false, response: await reject(gw, kind, pid, null, ReportCode.BadRequest, read.reason, request) };
  const params = read.params;

  let merchant: Merchant | null = null;
  let secret: string;
  if (pidText !== null) {
    merchant = pid !== null && pid > 0 ? await gw.store.getMerchant(pid) : null;
    if (!merchant) return { ok: false, response: await reject(gw, kind, pid, params, ReportCode.NotFound, `unknown merchant (pid ${pidText})`, request) };
    if (!merchant.active) return { ok: false, response: await reject(gw, kind, pid, params, ReportCode.Forbidden, "merchant is disabled", request) };
    secret = merchant.secret;
  } else {
    secret = (await gw.settings()).str("third_account_secret");
    if (secret === "") return { ok: false, response: await reject(gw, kind, null, params, ReportCode.Forbidden, "third-account reports are disabled: set the third_account_secret setting", request) };
  }

  const problem = firstProblem(schema, params);
  if (problem) return { ok: false, response: await reject(gw, kind, pid, params, ReportCode.BadRequest, problem, request) };
  const s = await gw.settings();
  const late = checkTimestamp(params.timestamp, gw.clock.now(), s.int("timestamp_window"), { allowMillis: true });
  if (late) return { ok: false, response: await reject(gw, kind, pid, params, ReportCode.BadRequest, late, request) };
  if (!verifyReport(params, secret)) return { ok: false, response: await reject(gw, kind, pid, params, ReportCode.BadSign, BAD_SIGN_HELP, request) };
  return { ok: true, params, merchant };
}

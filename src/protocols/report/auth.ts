// The gate every report passes: readable parameters, a known merchant (or the third-account
// secret), the schema, the timestamp window and the MD5 signature. A refused report is still
// stored (outcome rejected) so the operator can see why a phone's reports go nowhere, within the
// fixed bounds of core/refusals.ts (an outsider can send any number of them).
// Who signed decides what a report may pay (core/clients/reporter.ts): a report client of that pid
// (a phone with a secret of its own; pid 0 is the operator's), or, when report_merchant_secret
// allows it, the merchant's AppSecret, which pays only on the merchant's own accounts.
import { keyedReporter, merchantReporter, type Reporter } from "../../core/clients/reporter.ts";
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

/** `reporter` is null only on the third-account routes (the operator's third_account_secret). */
export type Accepted = { ok: true; params: Params; reporter: Reporter | null } | { ok: false; response: Response };

const MERCHANT_SECRET_OFF =
  "reports signed with the merchant's AppSecret are turned off (setting report_merchant_secret=0): sign with the secret of a report client (xpay client add-report)";

export function reply(e: ReportEnvelope): Response {
  return json(e, e.code);
}

/** Stores the refused report (counted per client address when `request` is given) and answers with its non-200 code. */
export async function reject(gw: Gateway, kind: ReportRecord["kind"], pid: number | null, params: Params | null, code: number, reason: string, request?: Request): Promise<Response> {
  const p = params ?? {};
  await recordRefusal(gw, {
    kind, pid, source: request ? peerIp(request, undefined, gw.proxyHops) : "", client: p.client_name ?? p.account ?? p.from ?? "",
    raw: params ? rawOf(kind, params) : "(unreadable request)", payType: p.pay_type ?? "", channelCode: p.channel_code ?? "", reason,
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

/** The report clients of `pid` whose secret signed the parameters (keys are unique: at most one). */
async function signingClient(gw: Gateway, pid: number, params: Params) {
  const directory = await gw.store.directory();
  const clients = directory.clients.filter((c) => c.kind === "report" && c.pid === pid);
  // The phones watching the account the report names are tried first: an operator with a phone per
  // account otherwise checked the signature against half of them per report. Keys are unique, so at
  // most one verifies and the order cannot change which.
  const named = Number(params.channel_account_id);
  const first = Number.isInteger(named) && named > 0 ? clients.filter((c) => c.accountIds.includes(named)) : [];
  const signer = first.find((c) => verifyReport(params, c.key)) ?? clients.find((c) => !first.includes(c) && verifyReport(params, c.key));
  return { exists: clients.length > 0, signer: signer ?? null, directory };
}

async function check(gw: Gateway, request: Request, kind: ReportRecord["kind"], pidText: string | null, schema: ParamSchema): Promise<Accepted> {
  const pid = pidText !== null && /^\d{1,10}$/.test(pidText) ? Number(pidText) : null;
  const read = await readParams(request);
  if (!read.ok) return { ok: false, response: await reject(gw, kind, pid, null, ReportCode.BadRequest, read.reason, request) };
  const params = read.params;
  const refuse = async (code: number, reason: string): Promise<Accepted> => ({ ok: false, response: await reject(gw, kind, pid, params, code, reason, request) });

  if (pidText === null) return checkThirdAccount(gw, params, schema, refuse);
  let merchant: Merchant | null = null;
  if (pid !== null && pid > 0) {
    merchant = await gw.store.getMerchant(pid);
    if (merchant && !merchant.active) return refuse(ReportCode.Forbidden, "merchant is disabled");
  }
  const clients = pid === null ? { exists: false, signer: null, directory: undefined } : await signingClient(gw, pid, params);
  if (!merchant && !clients.exists) return refuse(ReportCode.NotFound, `unknown merchant (pid ${pidText})`);

  const problem = firstProblem(schema, params);
  if (problem) return refuse(ReportCode.BadRequest, problem);
  const s = await gw.settings();
  const late = checkTimestamp(params.timestamp, gw.clock.now(), s.int("timestamp_window"), { allowMillis: true });
  if (late) return refuse(ReportCode.BadRequest, late);
  if (clients.signer) return { ok: true, params, reporter: { ...keyedReporter(clients.signer), directory: clients.directory } };
  if (merchant && verifyReport(params, merchant.secret)) {
    if (s.str("report_merchant_secret") !== "1") return refuse(ReportCode.Forbidden, MERCHANT_SECRET_OFF);
    return { ok: true, params, reporter: { ...merchantReporter(merchant.pid), directory: clients.directory } };
  }
  return refuse(ReportCode.BadSign, BAD_SIGN_HELP);
}

async function checkThirdAccount(gw: Gateway, params: Params, schema: ParamSchema, refuse: (code: number, reason: string) => Promise<Accepted>): Promise<Accepted> {
  const s = await gw.settings();
  const secret = s.str("third_account_secret");
  if (secret === "") return refuse(ReportCode.Forbidden, "third-account reports are disabled: set the third_account_secret setting");
  const problem = firstProblem(schema, params);
  if (problem) return refuse(ReportCode.BadRequest, problem);
  const late = checkTimestamp(params.timestamp, gw.clock.now(), s.int("timestamp_window"), { allowMillis: true });
  if (late) return refuse(ReportCode.BadRequest, late);
  if (!verifyReport(params, secret)) return refuse(ReportCode.BadSign, BAD_SIGN_HELP);
  return { ok: true, params, reporter: null };
}

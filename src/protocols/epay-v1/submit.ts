// GET or POST /xpay/epay/submit.php: the browser arrives from the merchant's page; 302 to the
// cashier, or an HTML page that says what is wrong. Without `type` (v2board, Xboard with its TYPE
// left empty) the order is created with no pay type and the cashier lets the payer pick, as
// V2 submit does; a replayed link finds the same order (same out_trade_no and amount).
import type { Gateway } from "../../core/gateway.ts";
import { errorPage, redirect } from "../http.ts";
import { fromForm, type ParamsResult, queryString, readParams } from "../params.ts";
import { authenticateV1 } from "./auth.ts";
import { epayCreate, type Server } from "./create.ts";
import { SubmitParams } from "./schemas.ts";

/**
 * Old SDKs post to `submit.php?_input_charset=utf-8` with the fields in the body, newer ones put
 * everything in a GET link: the query wins when it names the merchant, else the body is read.
 * `_input_charset` is a transport hint that no SDK signs, so it is dropped before verifying.
 */
export async function submitParams(request: Request): Promise<ParamsResult> {
  let read: ParamsResult;
  try {
    read = fromForm(queryString(request));
  } catch {
    read = { ok: false, reason: "query string is malformed" };
  }
  if (!read.ok || read.params.pid === undefined) read = await readParams(request);
  if (read.ok) delete read.params._input_charset;
  return read;
}

export async function submitPhp(gw: Gateway, request: Request, server: Server): Promise<Response> {
  const auth = await authenticateV1(gw, request, SubmitParams, submitParams);
  if (!auth.ok) return errorPage(auth.msg, auth.throttled ? 429 : 400);
  const p = auth.params;
  const r = await epayCreate(gw, auth.merchant, p, { family: "epay-v1", payType: p.type ?? "", request, server });
  if (!r.ok) return errorPage(r.msg);
  return redirect(gw.cashierUrl(r.outcome.order.tradeNo, request));
}

// POST /api/report/smsforwarder/{id}: SmsForwarder's Webhook sender, unchanged: its default form
// (from, content, timestamp, sign) or the JSON template of the setup page, signed with the secret
// of keyed client {id} (xpay client add-smsforwarder). The signature covers the timestamp only, so
// a timestamp is accepted once (a byte-identical retry, or a replay, reads "duplicate" with a 200
// and pays nothing) and only within smsforwarder_window; the text is then read like every
// forwarded notification (message.ts settleMessage: anchored formats, then the operator's rules).
import { keyedReporter } from "../../core/clients/reporter.ts";
import type { Gateway } from "../../core/gateway.ts";
import type { KeyedClient } from "../../core/store.ts";
import { authGate, THROTTLED } from "../auth-gate.ts";
import { type Params, readParams } from "../params.ts";
import { firstProblem } from "../schema.ts";
import { md5Hex } from "../signing.ts";
import { reject, reply } from "./auth.ts";
import { fail, rawOf, ReportCode, settledEnvelope } from "./codec.ts";
import { settleMessage } from "./message.ts";
import { SmsForwarderParams } from "./schemas.ts";
import { forwardedOf, readSmsRequest, type SmsMessage, verifySmsSign } from "./sms-codec.ts";

const BAD_SIGN = "signature mismatch: the app's Secret must be this client's secret (xpay client show NAME)";

async function client(gw: Gateway, idText: string): Promise<KeyedClient | null> {
  if (!/^\d{1,10}$/.test(idText)) return null;
  const c = await gw.store.getKeyedClient(Number(idText));
  return c?.kind === "smsforwarder" ? c : null;
}

/** One notification of one phone: a second forward of it (another timestamp) is a duplicate. */
const messageKey = (clientId: number, m: SmsMessage) => md5Hex(["sms", clientId, m.from, m.title, m.text, m.receiveTime].join("\n"));

export async function smsforwarderReport(gw: Gateway, request: Request, idText: string): Promise<Response> {
  const gate = await authGate(gw, request);
  if (gate.blocked) {
    const res = reply(fail(ReportCode.TooMany, THROTTLED));
    res.headers.set("retry-after", String(gate.retryAfter));
    return res;
  }
  const refuse = (p: Params | null, pid: number | null, code: number, reason: string) => {
    if (code === ReportCode.BadSign || code === ReportCode.NotFound) gate.failed();
    return reject(gw, "message", pid, p, code, reason, request);
  };
  const read = await readParams(request);
  if (!read.ok) return refuse(null, null, ReportCode.BadRequest, read.reason);
  const p = read.params;
  // An unknown id reads exactly like a wrong secret: the URL alone tells a stranger nothing.
  const c = await client(gw, idText);
  if (!c) return refuse(p, null, ReportCode.BadSign, BAD_SIGN);
  const problem = firstProblem(SmsForwarderParams, p);
  if (problem) return refuse(p, c.pid, ReportCode.BadRequest, problem);
  const req = readSmsRequest(p);
  if (!req.ok) return refuse(p, c.pid, ReportCode.BadRequest, req.reason);
  const window = (await gw.settings()).int("smsforwarder_window");
  const nowMs = gw.clock.nowMs();
  if (Math.abs(nowMs - Number(req.timestamp)) > window * 1000) {
    return refuse(p, c.pid, ReportCode.BadRequest, `timestamp is more than ${window} s from the server's clock (setting smsforwarder_window); check the phone's time`);
  }
  if (!verifySmsSign(c.key, req.timestamp, req.sign)) return refuse(p, c.pid, ReportCode.BadSign, BAD_SIGN);
  if (c.pid > 0 && !(await gw.store.getMerchant(c.pid))?.active) return refuse(p, c.pid, ReportCode.Forbidden, "merchant is disabled");

  const m = forwardedOf(req.message);
  // Stored in the spec's message shape, so the console, `report list` and the rules read it as any other.
  const content = JSON.stringify(m);
  const r = await settleMessage(gw, keyedReporter(c), m, {
    phone: c.name,
    raw: rawOf("message", { from: req.message.from, content, timestamp: req.timestamp }),
    content,
    nonce: { clientId: c.id, ts: Number(req.timestamp), seenAt: gw.clock.now(), forgetBefore: nowMs - window * 1000 },
    dedupeKey: messageKey(c.id, req.message),
  });
  return reply(settledEnvelope(r));
}

// Report API codec: the {code, message, data} envelope, the MD5 rule of the spec (secret appended)
// and the keys that recognise a repeated report. Pure; the route files do the HTTP.
import { md5Hex, md5Sign, md5Verify, type Signable } from "../signing.ts";
import type { Params } from "../params.ts";

export const REPORT_EXCLUDED = ["sign"] as const;

/** The HTTP status equals the code, so a client that only looks at the status still sees failures. */
export const ReportCode = { Ok: 200, BadRequest: 400, BadSign: 401, Forbidden: 403, NotFound: 404, TooMany: 429, Internal: 500 } as const;

export interface ReportEnvelope<T = unknown> {
  code: number;
  message: string;
  data: T | null;
}

export const ok = <T>(data: T | null = null, message = "success"): ReportEnvelope<T> => ({ code: ReportCode.Ok, message, data });
export const fail = (code: number, message: string): ReportEnvelope => ({ code, message, data: null });

export const signReport = (params: Signable, secret: string) => md5Sign(params, secret, REPORT_EXCLUDED);
export const verifyReport = (params: Signable, secret: string) => md5Verify(params, secret, "sign", REPORT_EXCLUDED);

export const BAD_SIGN_HELP = "signature mismatch: sign = md5(sorted non-empty k=v joined by & + secret), over every parameter sent";

/**
 * The identity of one received payment. Phone clients resend a report they think failed with the
 * same body, so identical fields (including the timestamp when there is no pay_time) are one
 * payment; a second real payment of the same amount carries a different pay_time or timestamp.
 */
export function amountReportKey(pid: number, p: Params): string {
  const fields = ["amount", "pay_type", "channel_code", "channel_account_id", "coll_user", "pay_user", "uid", "order_id", "out_order_id", "remark"];
  const when = p.pay_time ? `pay_time=${p.pay_time}` : `timestamp=${p.timestamp ?? ""}`;
  return md5Hex(["pc", pid, ...fields.map((f) => `${f}=${p[f] ?? ""}`), when].join("\n"));
}

/** A forwarded notification is identified by its whole content (it carries receive_time). */
export function messageReportKey(pid: number, content: string): string {
  return md5Hex(`msg\n${pid}\n${content}`);
}

export function thirdAccountKey(p: Params): string {
  const fields = ["account", "type", "sub_account", "amount", "pay_type", "channel_code", "order_id", "out_order_id", "remark", "timestamp"];
  return md5Hex(["third", ...fields.map((f) => `${f}=${p[f] ?? ""}`)].join("\n"));
}

/** The raw report as stored: its kind's fields only, each capped (raw.ts). */
export { rawOf } from "./raw.ts";

/** What a client is told about an accepted payment report: 200 whenever it was stored, so it stops resending. */
export function settledEnvelope(r: { reportId: number | null; outcome: string; reason: string; tradeNo: string | null }): ReportEnvelope {
  const data = { report_id: r.reportId, outcome: r.outcome, trade_no: r.tradeNo ?? "", reason: r.reason };
  if (r.outcome === "matched") return ok(data, "success: order paid");
  if (r.outcome === "duplicate") return ok(data, "duplicate report; already handled");
  return ok(data, `report stored, no order paid: ${r.reason}`);
}

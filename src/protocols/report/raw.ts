// What a stored report keeps of its request: the fields its kind defines, each cut at its cap, and
// nothing else. The signature covers every parameter sent (SDKs add their own), so a signed report
// could carry any number of extra ones; they are verified, never stored (a 7.8 KB extra parameter
// on every report once grew the table fiftyfold). A new kind of report adds its list here: the
// type makes every kind name one.
import type { ReportRecord } from "../../core/store.ts";
import type { Params } from "../params.ts";

/** [parameter, most characters kept]. */
type Field = readonly [string, number];

const TIME: Field = ["timestamp", 16];
const SIGN: Field = ["sign", 64];

export const REPORT_FIELDS: Record<ReportRecord["kind"], readonly Field[]> = {
  amount: [
    ["amount", 16], ["pay_type", 20], ["channel_code", 64], ["channel_account_id", 20], ["remark", 255], ["pay_time", 64],
    ["coll_user", 128], ["pay_user", 128], ["uid", 128], ["order_id", 64], ["out_order_id", 64], TIME, SIGN,
  ],
  message: [["from", 128], ["content", 4096], TIME, SIGN],
  heart: [["client_name", 128], ["channel_id", 20], ["ext_data", 1024], TIME, SIGN],
  "third-account": [
    ["account", 128], ["type", 20], ["sub_account", 128], ["amount", 16], ["pay_type", 20], ["channel_code", 64], ["remark", 255],
    ["order_id", 64], ["out_order_id", 64], TIME, SIGN,
  ],
  "third-heart": [["account", 128], ["type", 20], TIME, SIGN],
  "vmq-push": [["t", 20], ["type", 8], ["price", 32], ["force_push", 8], SIGN],
  "vmq-heart": [["t", 20], SIGN],
  // Written by the core (simulate-pay, xpay dev), never read from a request.
  operator: [],
};

/** The raw report as stored: the kind's own fields, each capped, as JSON. */
export function rawOf(kind: ReportRecord["kind"], p: Params): string {
  const kept: Record<string, string> = {};
  for (const [name, max] of REPORT_FIELDS[kind]) {
    const v = p[name];
    if (v !== undefined) kept[name] = v.length > max ? v.slice(0, max) : v;
  }
  return JSON.stringify(kept);
}

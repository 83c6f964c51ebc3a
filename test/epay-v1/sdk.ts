// What a 彩虹易支付 V1 SDK does on the merchant side: sign with sign_type left out, build GET links
// with form encoding, and check a notification over every parameter of its query.
import { createHash } from "node:crypto";
import type { Harness } from "../helpers.ts";
import { SECRET } from "../helpers.ts";

/** Written independently of src/: ksort, skip '' and sign/sign_type, k=v&..., append key, md5. */
export function sdkSign(params: Record<string, string>, key = SECRET): string {
  const text = Object.keys(params)
    .filter((k) => k !== "sign" && k !== "sign_type" && params[k] !== "")
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join("&");
  return createHash("md5").update(text + key, "utf8").digest("hex");
}

export function v1Params(o: Record<string, string | number> = {}, key = SECRET): Record<string, string> {
  const p: Record<string, string> = {};
  const base = { pid: 1001, type: "alipay", out_trade_no: `E${Math.random().toString(36).slice(2)}`, name: "VIP", money: "10.00", notify_url: "http://127.0.0.1/n", return_url: "http://127.0.0.1/r", ...o };
  for (const [k, v] of Object.entries(base)) p[k] = String(v);
  return { ...p, sign: sdkSign(p, key), sign_type: "MD5" };
}

/** The SDK's verifyNotify(): every parameter of the query, signature compared. */
export function sdkVerify(query: URLSearchParams, key = SECRET): boolean {
  const params = Object.fromEntries(query);
  return params.sign === sdkSign(params, key);
}

export async function call(h: Harness, method: "GET" | "POST", path: string, params: Record<string, string>, query = "") {
  const body = new URLSearchParams(params).toString();
  const url = `http://localhost${path}${method === "GET" ? `?${body}` : query}`;
  const init: RequestInit = method === "GET" ? {} : { method, headers: { "content-type": "application/x-www-form-urlencoded" }, body };
  return h.app.handle(new Request(url, init));
}

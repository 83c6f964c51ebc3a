// epay V1 mapi.php create bodies, MD5 signed as the official epay V1 SDK signs them (sorted
// non-empty fields without sign and sign_type, secret appended), precomputed like the native ones.
import { md5Sign } from "../src/protocols/signing.ts";
import { payerAddress, randomYuan } from "./native.ts";
import { PID, SECRET } from "./seed.ts";

export function mapiBodies(n: number, prefix: string, notifyUrl: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const p: Record<string, string> = {
      pid: String(PID), type: "alipay", out_trade_no: `${prefix}${i}`, notify_url: notifyUrl, return_url: "http://127.0.0.1/return",
      name: "VIP", money: randomYuan(), clientip: payerAddress(), device: "pc",
    };
    out.push(new URLSearchParams({ ...p, sign: md5Sign(p, SECRET, ["sign", "sign_type"]), sign_type: "MD5" }).toString());
  }
  return out;
}

export const mapiOk = (status: number, body: string) => status === 200 && body.startsWith('{"code":1,');

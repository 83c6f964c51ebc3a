// epay V2 create bodies, RSA-SHA256 signed with the merchant key as the SDK does. RSA signing costs
// about a millisecond, so the pool is built before the run and reused round-robin if it runs out
// (a repeated out_trade_no is an idempotent create: still verified and signed, no new row).
import { createPrivateKey, createSign } from "node:crypto";
import { randomYuan } from "./native.ts";
import { PID } from "./seed.ts";

function content(p: Record<string, string>): string {
  return Object.keys(p).filter((k) => k !== "sign" && k !== "sign_type" && p[k] !== "").sort().map((k) => `${k}=${p[k]}`).join("&");
}

export function v2CreateBodies(n: number, prefix: string, merchantPrivateKey: string, notifyUrl: string): string[] {
  const key = createPrivateKey({ key: Buffer.from(merchantPrivateKey, "base64"), format: "der", type: "pkcs8" });
  const now = String(Math.floor(Date.now() / 1000));
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const p: Record<string, string> = {
      pid: String(PID), type: "alipay", method: "web", device: "pc", out_trade_no: `${prefix}${i}`, notify_url: notifyUrl,
      return_url: "http://127.0.0.1/return", name: "VIP", money: randomYuan(),
      clientip: "127.0.0.1", timestamp: now,
    };
    const sign = createSign("RSA-SHA256").update(content(p), "utf8").sign(key, "base64");
    out.push(new URLSearchParams({ ...p, sign, sign_type: "RSA" }).toString());
  }
  return out;
}

export const v2Ok = (status: number, body: string) => status === 200 && body.startsWith('{"code":0');

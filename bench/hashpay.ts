// Hash protocol create bodies (POST /xpay/hashpay/payment/do.html), signed with `hash` as the
// vendor's SDK signs them, precomputed like the native ones.
import { randomBytes } from "node:crypto";
import { signHash } from "../src/protocols/hashpay/codec.ts";
import { randomYuan } from "./native.ts";
import { PID, SECRET } from "./seed.ts";

export function hashCreateBodies(n: number, prefix: string, notifyUrl: string): string[] {
  const time = String(Math.floor(Date.now() / 1000));
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const p: Record<string, string> = {
      version: "1.1", appid: String(PID), trade_order_id: `${prefix}${i}`, total_fee: randomYuan(), title: "VIP", time,
      notify_url: notifyUrl, nonce_str: randomBytes(8).toString("hex"), payment: "alipay",
    };
    out.push(new URLSearchParams({ ...p, hash: signHash(p, SECRET) }).toString());
  }
  return out;
}

export const hashOk = (status: number, body: string) => status === 200 && body.includes('"errcode":"0"');

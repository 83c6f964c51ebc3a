// What the epay V2 SDK does on the merchant side, written with node:crypto only: bare Base64 keys,
// RSA-SHA256 request signing, and the response/notification check (sign over every other
// top-level field, code and msg included; timestamp within 300 s).
import { createPrivateKey, createPublicKey, createSign, createVerify, generateKeyPairSync } from "node:crypto";
import { ensurePlatformKeys } from "../../src/core/platform-keys.ts";
import type { Harness } from "../helpers.ts";

export interface SdkKeys {
  merchantPrivate: string; // bare Base64 PKCS#8, as the SDK is configured
  merchantPublic: string; // bare Base64 SPKI, what the operator registers
}

export function newMerchantKeys(): SdkKeys {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    merchantPrivate: privateKey.export({ type: "pkcs8", format: "der" }).toString("base64"),
    merchantPublic: publicKey.export({ type: "spki", format: "der" }).toString("base64"),
  };
}

function content(params: Record<string, unknown>): string {
  return Object.keys(params)
    .filter((k) => k !== "sign" && k !== "sign_type" && params[k] !== "" && params[k] !== null && params[k] !== undefined)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join("&");
}

export function sdkSign(params: Record<string, string>, merchantPrivate: string): Record<string, string> {
  const key = createPrivateKey({ key: Buffer.from(merchantPrivate, "base64"), format: "der", type: "pkcs8" });
  const sign = createSign("RSA-SHA256").update(content(params), "utf8").sign(key, "base64");
  return { ...params, sign, sign_type: "RSA" };
}

/** The SDK's check of a response or notification, with the platform public key in bare Base64. */
export function sdkVerify(data: Record<string, unknown>, platformPublic: string, nowSeconds: number): boolean {
  if (Math.abs(nowSeconds - Number(data.timestamp)) > 300) return false;
  const key = createPublicKey({ key: Buffer.from(platformPublic, "base64"), format: "der", type: "spki" });
  return createVerify("RSA-SHA256").update(content(data), "utf8").verify(key, String(data.sign), "base64");
}

export async function platformPublicBase64(h: Harness): Promise<string> {
  const { publicKey } = await ensurePlatformKeys(h.gw.store);
  return publicKey.replace(/-----(BEGIN|END)[^-]*-----/g, "").replace(/\s+/g, "");
}

export function v2Params(h: Harness, keys: SdkKeys, o: Record<string, string | number> = {}): Record<string, string> {
  const base: Record<string, string | number> = {
    pid: 1001, type: "alipay", out_trade_no: `V${Math.random().toString(36).slice(2)}`, notify_url: "http://127.0.0.1/n",
    return_url: "http://127.0.0.1/r", name: "VIP", money: "10.00", timestamp: h.clock.now(), ...o,
  };
  const p: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== "") p[k] = String(v);
  return sdkSign(p, keys.merchantPrivate);
}

export async function post(h: Harness, path: string, params: Record<string, string>, as: "form" | "json" = "form") {
  const body = as === "json" ? JSON.stringify(params) : new URLSearchParams(params).toString();
  const type = as === "json" ? "application/json" : "application/x-www-form-urlencoded";
  return h.app.handle(new Request(`http://localhost/xpay/epayn/api/pay/${path}`, { method: "POST", headers: { "content-type": type }, body }));
}

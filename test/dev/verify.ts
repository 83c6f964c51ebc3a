// The merchant's side of the signatures, written from the merchant guide and not from the
// gateway's code, so a notification that verifies here verifies in a merchant's own handler.
import { createHash, createSign, createVerify } from "node:crypto";

/** Sorted k=v&... over the non-empty values, leaving out `excluded`. */
export function canonical(params: Record<string, string>, excluded: string[]): string {
  return Object.keys(params)
    .filter((k) => !excluded.includes(k) && params[k] !== "")
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join("&");
}

export const md5 = (text: string) => createHash("md5").update(text, "utf8").digest("hex");

/** The MD5 rule: md5(canonical + AppSecret), lowercase hex. */
export function md5Rule(params: Record<string, string>, secret: string, excluded: string[]): string {
  return md5(canonical(params, excluded) + secret);
}

export function rsaSignParams(params: Record<string, string>, privateKeyPem: string): string {
  return createSign("RSA-SHA256").update(canonical(params, ["sign", "sign_type"]), "utf8").sign(privateKeyPem, "base64");
}

export function rsaVerifyParams(params: Record<string, string>, publicKeyPem: string): boolean {
  const sign = params.sign ?? "";
  return createVerify("RSA-SHA256").update(canonical(params, ["sign", "sign_type"]), "utf8").verify(publicKeyPem, sign, "base64");
}

export const paramsOf = (text: string) => Object.fromEntries(new URLSearchParams(text));

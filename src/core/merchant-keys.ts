// A merchant's credentials, shared by `xpay merchant rotate-secret`, `xpay keygen` and the console:
// a new AppSecret, a new epay V2 key pair. The new secret and the private key are returned to be
// shown once; xpay keeps the secret (it verifies signatures with it) and only the public key of
// the pair. The audit rows name what happened and the public key's fingerprint, never a secret.
import { createHash, createPublicKey } from "node:crypto";
import { type Actor, audit } from "./admin/audit.ts";
import type { Gateway } from "./gateway.ts";
import { type MerchantProblem, newAppSecret, secretProblem } from "./merchant-admin.ts";
import { ensurePlatformKeys, newRsaKeyPair } from "./platform-keys.ts";
import type { Merchant } from "./types.ts";

/** "SHA256:<base64>" of the key's DER (SubjectPublicKeyInfo), as OpenSSH prints fingerprints; null when unreadable. */
export function keyFingerprint(publicPem: string | null): string | null {
  if (!publicPem) return null;
  try {
    const der = createPublicKey(publicPem).export({ type: "spki", format: "der" });
    return `SHA256:${createHash("sha256").update(der).digest("base64").replace(/=+$/, "")}`;
  } catch {
    return null;
  }
}

export type RotateSecretResult = { kind: "rotated"; merchant: Merchant; secret: string } | { kind: "not_found" } | { kind: "refused"; problem: MerchantProblem };

/** Replaces the AppSecret (given, or 32 random hex characters); the old one stops verifying at once. */
export async function rotateSecret(gw: Gateway, actor: Actor, pid: number, given?: string): Promise<RotateSecretResult> {
  const m = await gw.store.getMerchant(pid);
  if (!m) return { kind: "not_found" };
  const secret = given ?? newAppSecret();
  const problem = secretProblem(secret, m.secret);
  if (problem) return { kind: "refused", problem };
  const saved = await gw.store.updateMerchant(pid, { secret });
  if (!saved) return { kind: "not_found" };
  await audit(gw, { actor, action: "merchant.rotate_secret", target: `merchant:${pid}` });
  return { kind: "rotated", merchant: saved, secret };
}

export type MerchantKeysResult =
  | { kind: "generated"; privateKey: string; publicKey: string; platformPublicKey: string; fingerprint: string; replaced: boolean }
  | { kind: "not_found" }
  /** The merchant has a pair already and `replace` was not given. */
  | { kind: "has_keys"; fingerprint: string | null };

/**
 * A new V2 key pair for a merchant. The merchant's site signs with the private key of the pair it
 * holds, so a new pair breaks it until the merchant installs the new one: replacing existing keys
 * needs `replace` (the CLI's --force, the console's confirmation).
 */
export async function newMerchantKeys(gw: Gateway, actor: Actor, pid: number, o: { replace: boolean }): Promise<MerchantKeysResult> {
  const m = await gw.store.getMerchant(pid);
  if (!m) return { kind: "not_found" };
  const previous = keyFingerprint(m.rsaPublicKey);
  if (m.rsaPublicKey && !o.replace) return { kind: "has_keys", fingerprint: previous };
  const pair = newRsaKeyPair();
  if (!(await gw.store.updateMerchant(pid, { rsaPublicKey: pair.publicKey }))) return { kind: "not_found" };
  const platform = await ensurePlatformKeys(gw.store);
  const fingerprint = keyFingerprint(pair.publicKey)!;
  await audit(gw, { actor, action: "merchant.keygen", target: `merchant:${pid}`, before: { fingerprint: previous }, after: { fingerprint } });
  return { kind: "generated", privateKey: pair.privateKey, publicKey: pair.publicKey, platformPublicKey: platform.publicKey, fingerprint, replaced: m.rsaPublicKey !== null };
}

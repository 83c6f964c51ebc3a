import { generateKeyPairSync } from "node:crypto";
import type { Store } from "./store.ts";

export interface KeyPair {
  privateKey: string; // PEM, PKCS#8
  publicKey: string; // PEM, SPKI
}

export function newRsaKeyPair(): KeyPair {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  return { privateKey, publicKey };
}

/** The platform key pair that signs V2 responses and notifications; created once, on first use. */
export async function ensurePlatformKeys(store: Store): Promise<KeyPair> {
  const s = await store.getSettings();
  if (s.platform_private_key && s.platform_public_key) return { privateKey: s.platform_private_key, publicKey: s.platform_public_key };
  const fresh = newRsaKeyPair();
  // initSetting keeps whichever pair another process stored first.
  const privateKey = await store.initSetting("platform_private_key", fresh.privateKey);
  const publicKey = privateKey === fresh.privateKey ? await forceSet(store, fresh.publicKey) : await store.initSetting("platform_public_key", fresh.publicKey);
  return { privateKey, publicKey };
}

async function forceSet(store: Store, publicKey: string): Promise<string> {
  await store.setSetting("platform_public_key", publicKey);
  return publicKey;
}

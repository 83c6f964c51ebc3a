// The temp database the gateway is measured on: one merchant (MD5 secret and an epay V2 key),
// ACCOUNTS shared alipay accounts, each watched by a phone of the operator's own (a report client
// of pid 0 bound to it, as an operator sets them up: every account its own report group), a wide
// max_offset, and no rate limit on the public routes (every request of the bench comes from one IP).
import { generateKeyPairSync } from "node:crypto";
import { ensurePlatformKeys } from "../src/core/platform-keys.ts";
import { openGateway } from "../src/server/bootstrap.ts";

export const PID = 1001;
export const SECRET = "a1b2c3d4e5f60718293a4b5c6d7e8f90";
export const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 16);
/** The secret of the operator's phone that watches the account with this code (reports go to /api/report/0). */
export const phoneKey = (code: string) => `bench-phone-${code}-0123456789abcdef`;

export interface Seeded {
  merchantPrivateKey: string; // bare Base64 PKCS#8, as an epay V2 SDK holds it
  accounts: { id: number; code: string }[];
}

export async function seed(db: string): Promise<Seeded> {
  const gw = openGateway({ db });
  const s = gw.store;
  await s.addMerchant({ pid: PID, name: "Bench shop", secret: SECRET, now: gw.clock.now() });
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  await s.updateMerchant(PID, { rsaPublicKey: publicKey.export({ type: "spki", format: "der" }).toString("base64") });
  const accounts = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const code = `acc${i}`;
    const a = await s.addChannel({ pid: 0, payType: "alipay", code, name: `Alipay ${i}`, qrcode: `https://qr.alipay.com/bench${i}`, now: gw.clock.now() });
    accounts.push({ id: a.id, code });
    const phone = await s.addKeyedClient({ kind: "report", pid: 0, name: `phone-${code}`, key: phoneKey(code), accountIds: [a.id], now: gw.clock.now() });
    if (phone.kind !== "added") throw new Error(phone.reason);
  }
  // As `serve` does at its start: the benches that run the gateway in their own process
  // (bench/report-cpu.ts) otherwise read the whole settings table for the missing key on every
  // notification (1.7 % of report-cpu's samples, 2026-12-02).
  await ensurePlatformKeys(s);
  await s.setSetting("max_offset", "1000");
  await s.setSetting("public_rate_limit", "0");
  // BENCH_NOTIFY_SHARE: the worker's shares per merchant and per target (default 16 each; the bench
  // notifies one merchant at one target, so they bound its notifier).
  const share = process.env.BENCH_NOTIFY_SHARE;
  if (share) for (const k of ["notify_per_merchant", "notify_per_target"]) await s.setSetting(k, share);
  s.close();
  return { merchantPrivateKey: privateKey.export({ type: "pkcs8", format: "der" }).toString("base64"), accounts };
}

// The test setup `xpay dev` starts with: the marker, the fixed platform key pair, the test merchant
// with its fixed AppSecret and V2 key, one account per pay type without limits, and a V免签 client.
// Idempotent: `xpay dev --db PATH` on a database it made before finds everything in place and puts
// back the fixed values a developer may have changed (a rotated secret, a new key pair).
import { refreshGroups } from "../clients/keyed.ts";
import type { Gateway } from "../gateway.ts";
import { DEV_MERCHANT_PUBLIC_KEY, DEV_PLATFORM_PRIVATE_KEY, DEV_PLATFORM_PUBLIC_KEY } from "./keys.ts";
import { DEV_ACCOUNTS, DEV_MARKER_KEY, DEV_MERCHANT_NAME, DEV_PID, DEV_SECRET, DEV_VMQ_CLIENT, DEV_VMQ_KEY, DEV_VMQ_NOTIFY_URL } from "./mode.ts";

export interface DevSetup {
  pid: number;
  secret: string;
  vmqKey: string;
  accounts: { id: number; payType: string; code: string }[];
}

export async function seedDevGateway(gw: Gateway): Promise<DevSetup> {
  const store = gw.store;
  const now = gw.clock.now();
  await store.setSetting(DEV_MARKER_KEY, "1");
  // Fixed, so a merchant's CI can keep the platform public key in its configuration.
  await store.setSetting("platform_private_key", DEV_PLATFORM_PRIVATE_KEY);
  await store.setSetting("platform_public_key", DEV_PLATFORM_PUBLIC_KEY);

  if (!(await store.getMerchant(DEV_PID))) await store.addMerchant({ pid: DEV_PID, name: DEV_MERCHANT_NAME, secret: DEV_SECRET, now });
  const merchant = await store.updateMerchant(DEV_PID, { secret: DEV_SECRET, rsaPublicKey: DEV_MERCHANT_PUBLIC_KEY, active: true });
  // Kept when the developer configured their own (`xpay merchant set 1001 --setting vmq_notify_url=...`).
  if (merchant && !merchant.settings.vmq_notify_url) await store.updateMerchant(DEV_PID, { settings: { ...merchant.settings, vmq_notify_url: DEV_VMQ_NOTIFY_URL } });

  const existing = await store.listChannels({ pid: DEV_PID });
  const accounts: DevSetup["accounts"] = [];
  for (const a of DEV_ACCOUNTS) {
    let account = existing.find((x) => x.payType === a.payType && x.code === a.code);
    // min, max and day amounts 0: no limits (the defaults of an account).
    account ??= await store.addChannel({ pid: DEV_PID, payType: a.payType, code: a.code, name: a.name, qrcode: a.qrcode, now });
    if (!account.enabled) await store.updateChannel(account.id, { enabled: true });
    accounts.push({ id: account.id, payType: a.payType, code: a.code });
  }

  if (!(await store.listKeyedClients()).some((c) => c.name === DEV_VMQ_CLIENT && c.key === DEV_VMQ_KEY)) {
    const r = await store.addKeyedClient({ kind: "vmq", pid: DEV_PID, name: DEV_VMQ_CLIENT, key: DEV_VMQ_KEY, accountIds: [], now });
    if (r.kind === "refused") throw new Error(`cannot add the V免签 test client: ${r.reason}`);
  }
  gw.forgetSettings();
  await refreshGroups(gw);
  return { pid: DEV_PID, secret: DEV_SECRET, vmqKey: DEV_VMQ_KEY, accounts };
}

// Test harness: a gateway on a temp database, its app, and request helpers that sign like an SDK.
import { rmSync } from "node:fs";
import { tempDir } from "./temp-dirs.ts";
import { join } from "node:path";
import { ManualClock } from "../src/core/clock.ts";
import type { Gateway } from "../src/core/gateway.ts";
import { buildApp } from "../src/server/app.ts";
import { openGateway } from "../src/server/bootstrap.ts";
import { md5Sign } from "../src/protocols/signing.ts";

export const BASE = "http://127.0.0.1:8080";

/** A `trade_no` column as the public order number, for tests that read a SQLite file directly. */
export { PUBLIC_TRADE_NO_SQL as PUBLIC_TRADE_NO } from "../src/store/trade-no.ts";
export const SECRET = "a1b2c3d4e5f60718293a4b5c6d7e8f90";

export interface Harness {
  gw: Gateway;
  app: ReturnType<typeof buildApp>;
  clock: ManualClock;
  dir: string;
  dbPath: string;
  close(): void;
}

export { tempDir } from "./temp-dirs.ts";

export function harness(): Harness {
  const dir = tempDir();
  const dbPath = join(dir, "xpay.db");
  const clock = new ManualClock();
  const gw = openGateway({ db: dbPath, baseUrl: BASE, clock });
  const app = buildApp(gw);
  return {
    gw, app, clock, dir, dbPath,
    close() {
      gw.store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A merchant (pid 1001, the vectors' secret) and one alipay account of its own (its AppSecret reports may pay there). */
export async function seed(h: Harness, o: { min?: number; max?: number; day?: number; payType?: string } = {}) {
  const merchant = await h.gw.store.addMerchant({ pid: 1001, name: "Shop", secret: SECRET, now: h.clock.now() });
  const account = await h.gw.store.addChannel({
    pid: 1001, payType: o.payType ?? "alipay", code: "alipay_qr", name: "Alipay A", qrcode: "https://qr.alipay.com/fkx0001",
    minAmount: o.min, maxAmount: o.max, dayAmount: o.day, now: h.clock.now(),
  });
  return { merchant, account };
}

export function signed(params: Record<string, string | number>, secret = SECRET, field = "sign"): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) out[k] = String(v);
  out[field] = md5Sign(out, secret, [field]);
  return out;
}

export async function postJson(h: Harness, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await h.app.handle(
    new Request(`http://localhost${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) }),
  );
  return { res, body: (await res.json()) as any };
}

export async function postForm(h: Harness, path: string, params: Record<string, string>) {
  const res = await h.app.handle(
    new Request(`http://localhost${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(params).toString() }),
  );
  return res;
}

export function nativeCreate(o: Partial<Record<string, string | number>> = {}) {
  return signed({ pid: 1001, pay_type: "alipay", name: "VIP", money: "10.00", out_trade_no: `M${Math.random().toString(36).slice(2)}`, ...o } as Record<string, string | number>);
}

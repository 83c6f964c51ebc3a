// The operator's merchant actions, shared by `xpay merchant` and the console: add one, change its
// name, notification method and per-merchant cashier settings, enable or disable it. Each checks
// the whole change first (nothing is written when any part is wrong), then writes and is audited
// (`merchant.*`). The AppSecret never enters the audit log; keys and secrets: merchant-keys.ts.
import { randomBytes } from "node:crypto";
import { type Actor, audit } from "./admin/audit.ts";
import type { Gateway } from "./gateway.ts";
import { startOfDay } from "./ids.ts";
import { MERCHANT_KEYS, merchantSettingProblem } from "./merchant-settings.ts";
import type { Merchant } from "./types.ts";

export const MERCHANT_NAME_MAX = 128;
export const SECRET_MIN = 16;

/** What is wrong with one field of a merchant change; `text` is the CLI's English line. */
export interface MerchantProblem {
  field: "pid" | "name" | "secret" | "notify_method" | `setting:${string}`;
  code: "pid_taken" | "name_empty" | "name_long" | "secret_short" | "secret_same" | "method" | "setting_unknown" | "setting_value";
  text: string;
  /** pid_taken: the pid; setting_value: the setting's own check message (English, as `settings set` prints it). */
  detail?: string;
}

export const newAppSecret = (): string => randomBytes(16).toString("hex");

function nameProblem(name: string): MerchantProblem | null {
  if (name === "") return { field: "name", code: "name_empty", text: "--name must not be empty" };
  if ([...name].length > MERCHANT_NAME_MAX) return { field: "name", code: "name_long", text: `--name must be at most ${MERCHANT_NAME_MAX} characters` };
  return null;
}

export function secretProblem(secret: string, current?: string): MerchantProblem | null {
  if (secret.length < SECRET_MIN) return { field: "secret", code: "secret_short", text: `--secret must be at least ${SECRET_MIN} characters` };
  if (secret === current) return { field: "secret", code: "secret_same", text: "--secret is the current AppSecret; give a new one" };
  return null;
}

/** The fields of a merchant the audit log shows (never its secret). */
export const merchantView = (m: Merchant) => ({ pid: m.pid, name: m.name, active: m.active, notify_method: m.notifyMethod, settings: m.settings });

export type AddMerchantResult = { kind: "added"; merchant: Merchant } | { kind: "refused"; problems: MerchantProblem[] };

/** Adds a merchant; its AppSecret (given or 32 random hex characters) is in the answer only. */
export async function addMerchant(gw: Gateway, actor: Actor, o: { name: string; pid?: number; secret?: string }): Promise<AddMerchantResult> {
  const name = o.name.trim();
  const secret = o.secret ?? newAppSecret();
  const problems = [nameProblem(name), secretProblem(secret)].filter((p) => p !== null);
  if (o.pid !== undefined && (await gw.store.getMerchant(o.pid))) problems.unshift({ field: "pid", code: "pid_taken", text: `a merchant with pid ${o.pid} exists already`, detail: String(o.pid) });
  if (problems.length > 0) return { kind: "refused", problems };
  const merchant = await gw.store.addMerchant({ pid: o.pid, name, secret, now: gw.clock.now() });
  await audit(gw, { actor, action: "merchant.add", target: `merchant:${merchant.pid}`, after: merchantView(merchant) });
  return { kind: "added", merchant };
}

export interface MerchantPatch {
  name?: string;
  /** POST or GET, any case. */
  notifyMethod?: string;
  /** Per-merchant settings (cashier overrides, V免签 URLs): a value sets one, "" removes it. */
  settings?: Record<string, string>;
}

export type UpdateMerchantResult = { kind: "saved"; merchant: Merchant } | { kind: "not_found" } | { kind: "refused"; problems: MerchantProblem[] };

export async function updateMerchantOptions(gw: Gateway, actor: Actor, pid: number, patch: MerchantPatch): Promise<UpdateMerchantResult> {
  const problems: MerchantProblem[] = [];
  const name = patch.name?.trim();
  const named = name === undefined ? null : nameProblem(name);
  if (named) problems.push(named);
  const method = patch.notifyMethod?.toUpperCase();
  if (method !== undefined && method !== "GET" && method !== "POST") problems.push({ field: "notify_method", code: "method", text: "--notify-method must be GET or POST" });
  for (const [k, v] of Object.entries(patch.settings ?? {})) {
    const bad = merchantSettingProblem(k, v);
    if (!bad) continue;
    const known = MERCHANT_KEYS.includes(k);
    problems.push({ field: `setting:${k}`, code: known ? "setting_value" : "setting_unknown", text: bad, detail: known ? bad.replace(`--setting ${k} `, "") : undefined });
  }
  const m = await gw.store.getMerchant(pid);
  if (!m) return { kind: "not_found" };
  if (problems.length > 0) return { kind: "refused", problems };
  const settings = { ...m.settings };
  for (const [k, v] of Object.entries(patch.settings ?? {})) {
    if (v === "") delete settings[k];
    else settings[k] = v;
  }
  const saved = await gw.store.updateMerchant(pid, { name, notifyMethod: method as "GET" | "POST" | undefined, settings });
  if (!saved) return { kind: "not_found" };
  const before = merchantView(m);
  const after = merchantView(saved);
  const changed = (Object.keys(after) as (keyof typeof after)[]).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  if (changed.length > 0) {
    await audit(gw, { actor, action: "merchant.edit", target: `merchant:${pid}`, before: pick(before, changed), after: pick(after, changed) });
  }
  return { kind: "saved", merchant: saved };
}

const pick = <T extends object>(o: T, keys: (keyof T)[]) => Object.fromEntries(keys.map((k) => [k, o[k]]));

/** Enables or disables a merchant; null when there is none. Audited only when it changed. */
export async function setMerchantActive(gw: Gateway, actor: Actor, pid: number, active: boolean): Promise<Merchant | null> {
  const m = await gw.store.getMerchant(pid);
  if (!m) return null;
  const saved = await gw.store.updateMerchant(pid, { active });
  if (saved && m.active !== active) {
    await audit(gw, { actor, action: active ? "merchant.enable" : "merchant.disable", target: `merchant:${pid}`, before: { active: m.active }, after: { active } });
  }
  return saved;
}

export interface MerchantRow {
  merchant: Merchant;
  orders: { total: number; today: number; yesterday: number };
}

/** Every merchant with its order counts (today: the China-time day, like trade_no and the epay API). */
export async function merchantOverview(gw: Gateway): Promise<MerchantRow[]> {
  const today = startOfDay(gw.clock.now());
  const rows: MerchantRow[] = [];
  for (const merchant of await gw.store.listMerchants()) rows.push({ merchant, orders: await gw.store.merchantOrderCounts(merchant.pid, today) });
  return rows;
}

/** One merchant with its order counts, or null. */
export async function merchantRow(gw: Gateway, pid: number): Promise<MerchantRow | null> {
  const merchant = await gw.store.getMerchant(pid);
  return merchant ? { merchant, orders: await gw.store.merchantOrderCounts(pid, startOfDay(gw.clock.now())) } : null;
}

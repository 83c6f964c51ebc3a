// The operator's actions on keyed clients (phones with a secret of their own), shared by the CLI
// and the console: add, bind to the accounts the phone watches, remove, reveal the secret. Each is
// audited after it succeeded, and each one that changes who watches what recomputes the report
// groups (watch.ts), so the next create already keeps amounts unique where a report could be
// ambiguous.
import { randomBytes } from "node:crypto";
import { type Actor, audit } from "../admin/audit.ts";
import type { Gateway } from "../gateway.ts";
import type { KeyedClient, KeyedKind } from "../store.ts";
import { allWatchers, inScope, reportGroups, VMQ_PAY_TYPES } from "./watch.ts";

export const KEYED_KINDS: readonly KeyedKind[] = ["vmq", "smsforwarder", "report"];
const NAME = /^[^\x00-\x1f\x7f]{1,64}$/;
/** Printable ASCII without "/" (the V免签 app splits HOST/KEY on it) or spaces. */
const KEY = /^[\x21-\x2e\x30-\x7e]{8,128}$/;

export type ClientResult = { ok: true; client: KeyedClient } | { ok: false; reason: string };

/** A new secret: 32 random hex characters (128 bits). */
export const newClientKey = (): string => randomBytes(16).toString("hex");

/** Recomputes every account's report group from the clients and the report_merchant_secret setting. */
export async function refreshGroups(gw: Gateway): Promise<number> {
  const merchantReports = (await gw.settings()).str("report_merchant_secret") === "1";
  return gw.store.refreshReportGroups((accounts, clients) => reportGroups(accounts, allWatchers(clients, accounts, merchantReports)));
}

/** Why an account cannot be bound, as data (the console words it; bindingProblem is the CLI's line). */
export type BindingIssue =
  | { code: "no_account"; id: number }
  | { code: "vmq_pay_type"; id: number; payType: string }
  | { code: "other_merchant"; id: number; owner: number };

/** The first account that cannot be bound to a client of this kind and owner; null when all can. */
export async function bindingIssue(gw: Gateway, kind: KeyedKind, pid: number, accountIds: readonly number[]): Promise<BindingIssue | null> {
  for (const id of accountIds) {
    const a = await gw.store.getChannel(id);
    if (!a) return { code: "no_account", id };
    if (kind === "vmq" && !VMQ_PAY_TYPES.includes(a.payType)) return { code: "vmq_pay_type", id, payType: a.payType };
    if (!inScope({ kind, pid, accountIds: [] }, a)) return { code: "other_merchant", id, owner: a.pid };
  }
  return null;
}

/** Why these accounts cannot be bound to a client of this kind and owner; null when they can. */
export async function bindingProblem(gw: Gateway, kind: KeyedKind, pid: number, accountIds: readonly number[]): Promise<string | null> {
  const i = await bindingIssue(gw, kind, pid, accountIds);
  if (!i) return null;
  if (i.code === "no_account") return `no account with id ${i.id} (xpay channel list shows them)`;
  if (i.code === "vmq_pay_type") return `account ${i.id} is ${i.payType}; the V免签 app reports WeChat (wxpay) and Alipay (alipay) only`;
  return `account ${i.id} belongs to merchant ${i.owner}, not ${pid}; a merchant's client watches its own or shared accounts`;
}

/** A client name addClient takes: 1-64 characters, no control characters. */
export const validClientName = (name: string): boolean => NAME.test(name);

export interface NewClient {
  kind: KeyedKind;
  pid: number;
  name: string;
  /** Default: a new random key. */
  key?: string;
  accountIds: number[];
}

export async function addClient(gw: Gateway, actor: Actor, c: NewClient): Promise<ClientResult> {
  if (!NAME.test(c.name)) return { ok: false, reason: "the name must be 1-64 characters without control characters" };
  const key = c.key ?? newClientKey();
  if (!KEY.test(key)) return { ok: false, reason: 'the key must be 8-128 printable ASCII characters without "/" or spaces' };
  if (!Number.isSafeInteger(c.pid) || c.pid < 0) return { ok: false, reason: "pid must be a merchant id, or 0 for the operator's own client" };
  const accountIds = [...new Set(c.accountIds)];
  const bad = await bindingProblem(gw, c.kind, c.pid, accountIds);
  if (bad) return { ok: false, reason: bad };
  const r = await gw.store.addKeyedClient({ kind: c.kind, pid: c.pid, name: c.name, key, accountIds, now: gw.clock.now() });
  if (r.kind === "refused") return { ok: false, reason: r.reason };
  await refreshGroups(gw);
  await audit(gw, { actor, action: "client.add", target: `keyed_client:${r.client.id}`, after: summary(r.client) });
  return { ok: true, client: r.client };
}

/** Replaces the accounts the client watches; an empty list unbinds it. */
export async function bindClient(gw: Gateway, actor: Actor, id: number, accountIds: number[]): Promise<ClientResult> {
  const before = await gw.store.getKeyedClient(id);
  if (!before) return { ok: false, reason: `no client with id ${id}` };
  const ids = [...new Set(accountIds)];
  const bad = await bindingProblem(gw, before.kind, before.pid, ids);
  if (bad) return { ok: false, reason: bad };
  const after = await gw.store.bindKeyedClient(id, ids);
  if (!after) return { ok: false, reason: `no client with id ${id}` };
  await refreshGroups(gw);
  await audit(gw, { actor, action: "client.bind", target: `keyed_client:${id}`, before: { accounts: before.accountIds }, after: { accounts: after.accountIds } });
  return { ok: true, client: after };
}

export async function removeClient(gw: Gateway, actor: Actor, id: number): Promise<ClientResult> {
  const gone = await gw.store.removeKeyedClient(id);
  if (!gone) return { ok: false, reason: `no client with id ${id}` };
  await refreshGroups(gw);
  await audit(gw, { actor, action: "client.remove", target: `keyed_client:${id}`, before: summary(gone) });
  return { ok: true, client: gone };
}

/** The client with its secret, shown to `actor` and audited (never the value); null when there is none. */
export async function revealClientKey(gw: Gateway, actor: Actor, id: number): Promise<KeyedClient | null> {
  const c = await gw.store.getKeyedClient(id);
  if (!c) return null;
  // V免签's reveal keeps its action name, which the console's audit labels already know.
  const action = c.kind === "vmq" ? "vmq_client.reveal_key" : "client.reveal_key";
  await audit(gw, { actor, action, target: `${c.kind === "vmq" ? "vmq_client" : "keyed_client"}:${c.id}`, after: { name: c.name, pid: c.pid, kind: c.kind } });
  return c;
}

export async function clientByName(gw: Gateway, name: string): Promise<KeyedClient | null> {
  return (await gw.store.listKeyedClients()).find((c) => c.name === name) ?? null;
}

const summary = (c: KeyedClient) => ({ kind: c.kind, name: c.name, pid: c.pid, accounts: c.accountIds });

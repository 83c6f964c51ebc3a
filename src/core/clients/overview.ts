// The monitoring clients as the console and `xpay client list` list them: each client with its
// merchant, the accounts it watches (the same accounts its reports may pay on and mark online:
// watch.ts, through the report and V免签 routes), when it was last heard from and whether that is
// within heartbeat_timeout (the one rule of core/monitor-clients.ts, so these pages, the dashboard
// and `xpay client list` agree).
import type { Gateway } from "../gateway.ts";
import { presence } from "../monitor-clients.ts";
import { accountFits } from "../report-match.ts";
import type { KeyedClient, MonitorClient } from "../store.ts";
import type { ChannelAccount } from "../types.ts";
import { allWatchers, boundAccounts, merchantWatcher, watched, watchersOf, type Watcher } from "./watch.ts";

export interface ClientRow {
  client: MonitorClient;
  online: boolean;
  /** Seconds since the last report or beat; null: never heard from (a keyed client just added). */
  age: number | null;
  merchantName: string | null;
  accounts: ChannelAccount[];
  /** Unbound: it watches every account in its scope that no client is bound to. */
  everyAccount: boolean;
  /** The keyed client behind the row (V免签, SmsForwarder, report client); null for AppSecret phones and watchers. */
  keyed: KeyedClient | null;
}

export interface ClientsOverview {
  now: number;
  timeout: number;
  rows: ClientRow[];
}

export interface WatchContext {
  all: readonly ChannelAccount[];
  keyed: readonly KeyedClient[];
}

export const keyedOf = (c: MonitorClient, keyed: readonly KeyedClient[]): KeyedClient | null =>
  keyed.find((k) => k.kind === c.kind && k.pid === c.pid && k.name === c.name) ?? null;

/** The accounts a client's reports may pay on and mark online. */
export function accountsOf(c: MonitorClient, ctx: WatchContext): { accounts: ChannelAccount[]; everyAccount: boolean } {
  if (c.kind === "third-account") return { accounts: ctx.all.filter((a) => accountFits(a, { named: c.name })), everyAccount: false };
  const bound = boundAccounts(ctx.keyed);
  const k = keyedOf(c, ctx.keyed);
  const w: Watcher = k ?? merchantWatcher(c.pid);
  const accounts = watched(w, ctx.all, bound).filter((a) => k !== null || c.channelId === null || a.id === c.channelId);
  return { accounts, everyAccount: w.accountIds.length === 0 && (k !== null || c.channelId === null) };
}

/** Who watches each account: empty for an account no report can pay (unwatched). */
export function accountWatchers(ctx: WatchContext, merchantReports: boolean): Map<number, Watcher[]> {
  const watchers = allWatchers(ctx.keyed, ctx.all, merchantReports);
  return new Map(ctx.all.map((a) => [a.id, watchersOf(a, watchers, ctx.all)]));
}

/** A watcher as `channel list` names it: the client's name, or the merchant's AppSecret. */
export const watcherName = (w: Watcher): string => ("name" in w && typeof w.name === "string" ? w.name : `AppSecret of ${w.pid}`);

/** Every account's watchers, read now (channel list, the console's accounts page). */
export async function watchersNow(gw: Gateway): Promise<Map<number, Watcher[]>> {
  const [all, keyed, settings] = await Promise.all([gw.store.listChannels(), gw.store.listKeyedClients(), gw.settings()]);
  return accountWatchers({ all, keyed }, settings.str("report_merchant_secret") === "1");
}

export async function clientRow(c: MonitorClient, o: { now: number; timeout: number; names: Map<number, string> } & WatchContext): Promise<ClientRow> {
  const { online, silentFor: age } = presence(c.lastSeenAt, o.now, o.timeout);
  return { client: c, online, age, merchantName: o.names.get(c.pid) ?? null, keyed: keyedOf(c, o.keyed), ...accountsOf(c, o) };
}

async function context(gw: Gateway) {
  const [settings, all, keyed, merchants] = await Promise.all([gw.settings(), gw.store.listChannels(), gw.store.listKeyedClients(), gw.store.listMerchants()]);
  return { now: gw.clock.now(), timeout: settings.int("heartbeat_timeout"), all, keyed, names: new Map(merchants.map((m) => [m.pid, m.name])) };
}

/** Every client, most recently heard from first (the order of `xpay client list`). */
export async function clientsOverview(gw: Gateway): Promise<ClientsOverview> {
  const ctx = await context(gw);
  const rows = await Promise.all((await gw.store.listClients()).map((c) => clientRow(c, ctx)));
  return { now: ctx.now, timeout: ctx.timeout, rows };
}

/** One client's row; null when there is no such client. */
export async function findClient(gw: Gateway, id: number): Promise<(ClientRow & { now: number; timeout: number }) | null> {
  const c = await gw.store.devices.getClient(id);
  if (!c) return null;
  const ctx = await context(gw);
  return { ...(await clientRow(c, ctx)), now: ctx.now, timeout: ctx.timeout };
}

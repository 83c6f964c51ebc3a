// The monitoring clients as the console lists them: each client with its merchant, the accounts it
// speaks for (the same accounts its reports mark online: report/accounts.ts, vmq/accounts.ts),
// when it was last heard from and whether that is within heartbeat_timeout (the one rule of
// core/monitor-clients.ts, so these pages, the dashboard and `xpay client list` agree).
import type { Gateway } from "../gateway.ts";
import { presence } from "../monitor-clients.ts";
import { accountFits } from "../report-match.ts";
import type { MonitorClient, VmqClient } from "../store.ts";
import type { ChannelAccount } from "../types.ts";

export interface ClientRow {
  client: MonitorClient;
  online: boolean;
  /** Seconds since the last report or beat; null: never heard from (a V免签 client just added). */
  age: number | null;
  merchantName: string | null;
  accounts: ChannelAccount[];
  /** It speaks for every account its merchant can use (no channel_id, an unbound V免签 app). */
  everyAccount: boolean;
  vmq: VmqClient | null;
}

export interface ClientsOverview {
  now: number;
  timeout: number;
  rows: ClientRow[];
}

const VMQ_TYPES = new Set(["wxpay", "alipay"]);

/** The accounts a client's reports mark online, as the report and V免签 routes choose them. */
export function accountsOf(c: MonitorClient, all: readonly ChannelAccount[], vmq: VmqClient | null): { accounts: ChannelAccount[]; everyAccount: boolean } {
  const usable = all.filter((a) => a.pid === 0 || a.pid === c.pid);
  if (c.kind === "third-account") return { accounts: all.filter((a) => accountFits(a, { named: c.name })), everyAccount: false };
  if (c.kind === "vmq") {
    const bound = vmq?.accountIds ?? [];
    return { accounts: usable.filter((a) => VMQ_TYPES.has(a.payType) && (bound.length === 0 || bound.includes(a.id))), everyAccount: bound.length === 0 };
  }
  if (c.channelId !== null) return { accounts: all.filter((a) => a.id === c.channelId), everyAccount: false };
  return { accounts: usable, everyAccount: true };
}

export async function clientRow(gw: Gateway, c: MonitorClient, o: { now: number; timeout: number; all: readonly ChannelAccount[]; vmqs: readonly VmqClient[]; names: Map<number, string> }): Promise<ClientRow> {
  const vmq = c.kind === "vmq" ? (o.vmqs.find((v) => v.pid === c.pid && v.name === c.name) ?? null) : null;
  const { online, silentFor: age } = presence(c.lastSeenAt, o.now, o.timeout);
  return { client: c, online, age, merchantName: o.names.get(c.pid) ?? null, vmq, ...accountsOf(c, o.all, vmq) };
}

async function context(gw: Gateway) {
  const [settings, all, vmqs, merchants] = await Promise.all([gw.settings(), gw.store.listChannels(), gw.store.listVmqClients(), gw.store.listMerchants()]);
  return { now: gw.clock.now(), timeout: settings.int("heartbeat_timeout"), all, vmqs, names: new Map(merchants.map((m) => [m.pid, m.name])) };
}

/** Every client, most recently heard from first (the order of `xpay client list`). */
export async function clientsOverview(gw: Gateway): Promise<ClientsOverview> {
  const ctx = await context(gw);
  const rows = await Promise.all((await gw.store.listClients()).map((c) => clientRow(gw, c, ctx)));
  return { now: ctx.now, timeout: ctx.timeout, rows };
}

/** One client's row; null when there is no such client. */
export async function findClient(gw: Gateway, id: number): Promise<(ClientRow & { now: number; timeout: number }) | null> {
  const c = await gw.store.devices.getClient(id);
  if (!c) return null;
  const ctx = await context(gw);
  return { ...(await clientRow(gw, c, ctx)), now: ctx.now, timeout: ctx.timeout };
}

// Whether each monitoring client (phone, third-party-account watcher, V免签 app) is online: seen
// within the heartbeat_timeout setting, the rule order creation reads (core/allocation.ts). One
// function for `xpay client list` and the console, so both say "online" about the same clients.
import type { Gateway } from "./gateway.ts";
import type { MonitorClient } from "./store.ts";

export interface ClientState extends MonitorClient {
  online: boolean;
  /** Seconds since the last report or heartbeat; null: never seen (a V免签 client before its first heartbeat). */
  silentFor: number | null;
}

/**
 * The rule itself: online when last seen at most `heartbeatTimeout` seconds ago; a client never
 * seen (a V免签 app before its first heartbeat: lastSeenAt 0) is offline with no silence to show.
 * The console's client pages (core/clients/overview.ts) read it through here too.
 */
export function presence(lastSeenAt: number, now: number, heartbeatTimeout: number): { online: boolean; silentFor: number | null } {
  const silentFor = lastSeenAt > 0 ? Math.max(0, now - lastSeenAt) : null;
  return { online: silentFor !== null && silentFor <= heartbeatTimeout, silentFor };
}

export async function clientStates(gw: Gateway, now = gw.clock.now()): Promise<{ heartbeatTimeout: number; clients: ClientState[] }> {
  const heartbeatTimeout = (await gw.settings()).int("heartbeat_timeout");
  const clients = (await gw.store.listClients()).map((c) => ({ ...c, ...presence(c.lastSeenAt, now, heartbeatTimeout) }));
  return { heartbeatTimeout, clients };
}

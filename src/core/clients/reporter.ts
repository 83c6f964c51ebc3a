// Who sent a payment report, and so what it may pay: the accounts its source watches (watch.ts),
// and the merchants whose orders it speaks for (its own; every merchant for the operator's client).
// The report routes, the V免签 routes and the SmsForwarder route all settle through here, so a
// merchant's AppSecret can never pay on an account its merchant does not own.
import type { Gateway } from "../gateway.ts";
import type { PaymentClaim } from "../report-match.ts";
import type { Directory, DirectoryAccount, DirectoryClient, MonitorClient } from "../store.ts";
import type { Merchant } from "../types.ts";
import { boundAccounts, merchantWatcher, type Watcher, watched } from "./watch.ts";

export interface Reporter {
  watcher: Watcher;
  /** The keyed client that signed; null for a merchant's AppSecret. */
  client: DirectoryClient | null;
  /**
   * The directory the request's signature was checked against: its accounts are read from the same
   * answer (one read of the version per report on PostgreSQL, where each is a round trip).
   */
  directory?: Directory;
}

export const keyedReporter = (client: DirectoryClient): Reporter => ({ watcher: client, client });
export const merchantReporter = (pid: number): Reporter => ({ watcher: merchantWatcher(pid), client: null });

/**
 * Every account the reporter watches (what its heartbeat marks online and its reports may pay on),
 * from the store's directory: read again only when an account or a keyed client changed.
 */
export async function reporterAccounts(gw: Gateway, r: Reporter): Promise<DirectoryAccount[]> {
  const { accounts, clients } = r.directory ?? (await gw.store.directory());
  return watched(r.watcher, accounts, boundAccounts(clients));
}

/** The merchants whose orders its reports pay: its own, or every one for the operator's client. */
export async function reporterMerchants(gw: Gateway, r: Reporter): Promise<Merchant[]> {
  if (r.watcher.pid === 0) return gw.store.listMerchants();
  const m = await gw.store.getMerchant(r.watcher.pid);
  return m ? [m] : [];
}

/** The claim's scope: whose orders (null: any merchant's) and on which accounts. */
export function claimScope(r: Reporter, accounts: readonly DirectoryAccount[]): Pick<PaymentClaim, "pid" | "accounts"> {
  return { pid: r.watcher.pid === 0 ? null : r.watcher.pid, accounts: accounts.map((a) => a.id) };
}

/**
 * The `client list` row an accepted report keeps alive: the keyed client's own, or the phone's
 * name. `named`: whether `phoneName` is a client's own name (a heartbeat's client_name, a
 * forwarded message's `from`). An amount report signed with the merchant's AppSecret only names
 * where the money was seen (coll_user, uid, else the channel_code): it refreshes a row of that name
 * but never adds one. A row it added was a "phone" named after the account's code, which the
 * client_silent alert then watched and alerted on (issue 31).
 */
export function presenceOf(r: Reporter, phoneName: string, named = true): { kind: MonitorClient["kind"]; pid: number; name: string; onlyListed: boolean } {
  if (r.client) return { kind: r.client.kind, pid: r.client.pid, name: r.client.name, onlyListed: false };
  return { kind: "phone", pid: r.watcher.pid, name: phoneName, onlyListed: !named };
}

// Who watches which receiving account, and so which accounts one payment report could mean. Pure
// rules over the accounts and the keyed clients; the report routes ask them which accounts a
// report may pay on and which accounts a heartbeat marks online, the console asks which accounts
// nobody watches, and the allocator's report groups come from them (reportGroups).
//
// A report source (a watcher) is a keyed client (a phone with its own secret) or a merchant's
// AppSecret (the spec's report API). A bound client watches the accounts it is bound to; an
// unbound one every account in its scope that no client is bound to (binding an account hands it
// to the clients bound to it). A merchant's AppSecret watches only that merchant's own accounts,
// never the operator's shared ones, and only those no client is bound to.
import type { DirectoryAccount, KeyedClient, KeyedKind } from "../store.ts";
import type { ChannelAccount } from "../types.ts";

/** The V免签 app reports WeChat and Alipay payments only. */
export const VMQ_PAY_TYPES: readonly string[] = ["wxpay", "alipay"];

export interface Watcher {
  kind: KeyedKind | "merchant";
  /** The merchant whose orders its reports pay; 0: the operator's client (any merchant's). */
  pid: number;
  /** Bound accounts; empty: unbound. */
  accountIds: readonly number[];
}

export const merchantWatcher = (pid: number): Watcher => ({ kind: "merchant", pid, accountIds: [] });

/** Whether a watcher's reports may concern this account at all (bound or not). */
export function inScope(w: Watcher, a: Pick<ChannelAccount, "pid" | "payType">): boolean {
  if (w.kind === "vmq" && !VMQ_PAY_TYPES.includes(a.payType)) return false;
  if (w.kind === "merchant") return a.pid === w.pid;
  return w.pid === 0 || a.pid === 0 || a.pid === w.pid;
}

/** Every account some client is bound to. */
export function boundAccounts(clients: readonly { accountIds: readonly number[] }[]): Set<number> {
  return new Set(clients.flatMap((c) => c.accountIds));
}

/** The accounts a watcher watches, in the order given. */
export function watched<A extends DirectoryAccount>(w: Watcher, accounts: readonly A[], bound: ReadonlySet<number>): A[] {
  if (w.accountIds.length > 0) return accounts.filter((a) => w.accountIds.includes(a.id) && inScope(w, a));
  return accounts.filter((a) => !bound.has(a.id) && inScope(w, a));
}

/**
 * Every report source: the keyed clients, and, when `merchantReports` (the report_merchant_secret
 * setting) is on, the AppSecret of every merchant that owns an account.
 */
export function allWatchers(clients: readonly KeyedClient[], accounts: readonly ChannelAccount[], merchantReports: boolean): Watcher[] {
  const owners = merchantReports ? [...new Set(accounts.filter((a) => a.pid > 0).map((a) => a.pid))] : [];
  return [...clients, ...owners.map(merchantWatcher)];
}

/**
 * The report group of every account: accounts of one pay type that one watcher's report could
 * mean share a group, and so (through shared members) do their groups. Each group is named by its
 * smallest account id. The allocator keeps payable amounts unique across a group, so a report
 * naming a pay type and an amount, but no account, means one order.
 */
export function reportGroups(accounts: readonly ChannelAccount[], watchers: readonly Watcher[]): Map<number, number> {
  const parent = new Map(accounts.map((a) => [a.id, a.id]));
  const root = (id: number): number => {
    let r = id;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(id, r);
    return r;
  };
  const bound = boundAccounts(watchers);
  for (const w of watchers) {
    const byType = new Map<string, number>();
    for (const a of watched(w, accounts, bound)) {
      const first = byType.get(a.payType);
      if (first === undefined) byType.set(a.payType, a.id);
      else {
        const [x, y] = [root(first), root(a.id)];
        if (x !== y) parent.set(Math.max(x, y), Math.min(x, y));
      }
    }
  }
  return new Map(accounts.map((a) => [a.id, root(a.id)]));
}

/** The watchers of one account (the console's "watched by"; empty: nobody can report on it). */
export function watchersOf(a: ChannelAccount, watchers: readonly Watcher[], accounts: readonly ChannelAccount[]): Watcher[] {
  const bound = boundAccounts(watchers);
  return watchers.filter((w) => watched(w, accounts, bound).some((x) => x.id === a.id));
}

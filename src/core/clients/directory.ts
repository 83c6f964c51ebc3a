// The directory of who watches which account (Store.directory), built from the accounts and keyed
// clients each store reads: their stamps left out (they move on every create, heartbeat and push
// without a new read), and frozen, since SQLite's store hands the same answer to every report
// until an account or a keyed client changes (migration 034).
import type { Directory, KeyedClient } from "../store.ts";
import type { ChannelAccount } from "../types.ts";

export function directoryOf(accounts: readonly ChannelAccount[], clients: readonly KeyedClient[]): Directory {
  return Object.freeze({
    accounts: Object.freeze(accounts.map(({ useSeq: _s, lastSeenAt: _l, ...a }) => Object.freeze(a))),
    clients: Object.freeze(
      clients.map(({ lastHeartT: _t, lastHeartAt: _h, lastPushAt: _p, accountIds, ...c }) => Object.freeze({ ...c, accountIds: Object.freeze([...accountIds]) as number[] })),
    ),
  });
}

export type Lists = [readonly ChannelAccount[], readonly KeyedClient[]];

/** The directory kept under the version it was read at; null: nothing kept for `v`. */
export function directoryKeeper() {
  let kept: { version: number; directory: Directory } | null = null;
  return {
    get: (v: number | null) => (v !== null && kept?.version === v ? kept.directory : null),
    /** What is kept, under its version (null: nothing). */
    latest: () => kept,
    put(v: number | null, lists: Lists): Directory {
      const directory = directoryOf(...lists);
      kept = v === null ? null : { version: v, directory };
      return directory;
    },
  };
}

/**
 * A directory read again only when the store's version moved (migration 034), for both adapters.
 * `version` is read first, then `lists`, so what is kept under a version is never older than it;
 * two calls that both find it moved both read, and if the answer kept last is not the current
 * version's the next call reads again. No version (its row deleted by hand): read every time.
 */
export function keptDirectory(version: () => Promise<number | null>, lists: () => Promise<Lists>, k = directoryKeeper()): () => Promise<Directory> {
  return async () => {
    const v = await version();
    return k.get(v) ?? k.put(v, await lists());
  };
}

/** keptDirectory for a store that reads synchronously (SQLite): also callable inside a write transaction. */
export function keptDirectorySync(version: () => number | null, lists: () => Lists): () => Directory {
  const k = directoryKeeper();
  return () => {
    const v = version();
    return k.get(v) ?? k.put(v, lists());
  };
}

/** A report's candidate accounts from the directory, as listChannels lists them: every one by id, or a merchant's own and the shared ones (`pid`) by sort then id. */
export function directoryAccounts(d: Directory, pid: number | null): Directory["accounts"] {
  const all = d.accounts;
  return pid === null ? all : all.filter((a) => a.pid === 0 || a.pid === pid).sort((a, b) => a.sort - b.sort || a.id - b.id);
}

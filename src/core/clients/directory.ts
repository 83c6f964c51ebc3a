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

type Lists = [readonly ChannelAccount[], readonly KeyedClient[]];

/** The directory kept under the version it was read at; null: nothing kept for `v`. */
function keeper() {
  let kept: { version: number; directory: Directory } | null = null;
  return {
    get: (v: number | null) => (v !== null && kept?.version === v ? kept.directory : null),
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
export function keptDirectory(version: () => Promise<number | null>, lists: () => Promise<Lists>): () => Promise<Directory> {
  const k = keeper();
  return async () => {
    const v = await version();
    return k.get(v) ?? k.put(v, await lists());
  };
}

/** keptDirectory for a store that reads synchronously (SQLite): also callable inside a write transaction. */
export function keptDirectorySync(version: () => number | null, lists: () => Lists): () => Directory {
  const k = keeper();
  return () => {
    const v = version();
    return k.get(v) ?? k.put(v, lists());
  };
}

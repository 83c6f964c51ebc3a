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

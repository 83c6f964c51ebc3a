// Which channel accounts a report speaks for: an accepted report marks them online (seen), which
// is what the operator's require_online_client setting checks before allocating an order there.
import type { Gateway } from "../../core/gateway.ts";
import { type AccountHint, accountFits } from "../../core/report-match.ts";

/** `pid` null: every account (third-account watchers are operator-wide). */
export async function accountsFor(gw: Gateway, pid: number | null, h: AccountHint): Promise<number[]> {
  const all = pid === null ? await gw.store.listChannels() : await gw.store.listChannels({ usableBy: pid });
  return all.filter((a) => accountFits(a, h)).map((a) => a.id);
}

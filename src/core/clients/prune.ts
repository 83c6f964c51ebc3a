// Device history is kept `client_history_days` (0: forever): the retention loop of serve
// (server/retention-loop.ts) calls this beside the reports' prune, in short batches.
import type { Gateway } from "../gateway.ts";
import { PRUNE_BATCH } from "../retention.ts";

export async function pruneClientHistory(gw: Gateway, o: { batch?: number } = {}): Promise<number> {
  const days = (await gw.settings()).int("client_history_days");
  if (days <= 0) return 0;
  const before = gw.clock.now() - days * 86_400;
  const batch = o.batch ?? PRUNE_BATCH;
  let total = 0;
  for (;;) {
    const n = await gw.store.devices.pruneIntervals(before, batch);
    total += n;
    if (n < batch) return total;
    await new Promise((r) => setImmediate(r)); // let waiting requests write between batches
  }
}

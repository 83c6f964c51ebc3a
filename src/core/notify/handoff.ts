// A payment's notification handed to this process's worker as its row is written, instead of
// waiting for a claim pass to find it: the row is written leased (PayUnit.lease), so no claim of any
// process sends it, and the worker sends it once the commit is answered. Without a worker, with
// rows already waiting (they go first, through the claim) or with the merchant's share full, the
// row is written due and unleased and the worker is woken as before.
import type { Gateway } from "../gateway.ts";
import type { Notification, OutboxEntry, PayResult, PayUnit } from "../store.ts";

/** The worker's side of one hand-off (server/worker.ts). */
export interface Taker {
  /** Inside the payment's unit: a share for the row and the lease to write it with (ms), or null. Asked again (a rerun), it takes the share again for the row asked about. */
  lease(row: { pid: number; url: string }): number | null;
  /** After the commit: the row written leased goes out. */
  deliver(n: Notification): void;
  /** The leased row was not committed: its share goes back. */
  cancel(): void;
}

export interface Offer {
  /** The payment's unit, made able to be taken (a fresh unit: it is changed and returned; asked again when a store reruns its transaction). */
  wrap(unit: PayUnit): PayUnit;
  /** With the payment's result once its unit committed, or null when it did not. */
  settled(pay: PayResult | null): void;
}

/** One payment's offer of its notification to this process's worker. */
export function offerNotification(gw: Gateway): Offer {
  const taker = gw.notificationTaker();
  if (!taker) return { wrap: (unit) => unit, settled: (pay) => void (pay?.kind === "paid" && pay.notificationId !== null && gw.notificationQueued()) };
  const written: { entry: OutboxEntry | null; nowMs: number; leased: boolean } = { entry: null, nowMs: 0, leased: false };
  return {
    wrap(unit) {
      const outbox = unit.outbox;
      unit.outbox = (paid) => (written.entry = outbox(paid));
      unit.lease = (row) => {
        const until = taker.lease(row);
        written.leased = until !== null;
        written.nowMs = unit.nowMs;
        return until;
      };
      return unit;
    },
    settled(pay) {
      const id = pay?.kind === "paid" ? pay.notificationId : null;
      const e = written.entry;
      if (pay?.kind === "paid" && id !== null && written.leased && e) {
        const { tradeNo, pid } = pay.order;
        const at = written.nowMs;
        taker.deliver({ id, tradeNo, pid, family: e.family, url: e.url, method: e.method, params: e.params, status: "pending", attempts: 0, nextAttemptAt: at, createdAt: at, deliveredAt: null });
        return;
      }
      if (written.leased) taker.cancel();
      if (id !== null) gw.notificationQueued();
    },
  };
}

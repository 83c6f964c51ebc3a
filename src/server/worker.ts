// The background loop of `xpay serve`: delivers due notifications and writes timed-out orders.
// A report's payment hands its row over as it is written (core/notify/handoff.ts: written leased,
// sent when the commit is answered, no claim); it wakes at once for other outbox rows this process
// writes and polls at least every second for rows another process wrote (simulate-pay or notify
// replay from the CLI) and for retries that fell due. Rows are claimed with a
// lease, so two servers on one database never send the same attempt, and a row claimed by a
// process that died is picked up again once its lease runs out. Each merchant and each target
// host:port gets at most a fair share of the slots (notify/fairness.ts), so one merchant whose
// endpoint hangs for the full timeout never delays the others.
import type { Gateway } from "../core/gateway.ts";
import { DEFAULT_LEASE_MS, type DeliveryOptions, deliverOne } from "../core/notify/deliver.ts";
import { type Caps, InFlight, NOTIFY_CONCURRENCY, NOTIFY_PER_MERCHANT, NOTIFY_PER_TARGET } from "../core/notify/fairness.ts";
import { sweepExpired } from "../core/expiry.ts";
import type { Taker } from "../core/notify/handoff.ts";
import type { Notification } from "../core/store.ts";
import { taskFailed, taskSucceeded } from "./background-health.ts";

export interface WorkerOptions extends DeliveryOptions {
  /** Poll interval in ms; capped at 1000 so other processes' rows are never waited on longer. */
  pollMs?: number;
  /** How many attempts may be in flight at once (default NOTIFY_CONCURRENCY). */
  concurrency?: number;
  /** Per-merchant and per-target caps; default: the settings notify_per_merchant, notify_per_target. */
  caps?: Partial<Caps>;
  leaseMs?: number;
  /** How often pending orders past expire_time are written as timed out. */
  sweepMs?: number;
}

export interface Worker {
  stop(): Promise<void>;
}

export function startWorker(gw: Gateway, o: WorkerOptions = {}): Worker {
  const pollMs = Math.min(o.pollMs ?? 1000, 1000);
  const concurrency = o.concurrency ?? NOTIFY_CONCURRENCY;
  const sweepMs = o.sweepMs ?? 15_000;
  const leaseMs = o.leaseMs ?? DEFAULT_LEASE_MS;
  const inflight = new Set<Promise<unknown>>();
  const shares = new InFlight();
  let stopped = false;
  // The caps as the last pass read them (a hand-off is asked inside a write transaction, where the
  // settings cannot be awaited), and whether that pass left due rows behind: while it did, a new
  // row is not taken as it is written but waits its turn in the claim (handoff.ts).
  let caps: Caps | null = null;
  let behind = true;
  let claiming: Promise<void> | null = null;
  let again = false;
  let lastSweep = 0;

  // gw.log masks secret-looking fields; only outcomes are logged, never the signed parameters.
  const log = (what: string, e: unknown) => gw.log.error("notify.worker", { what, error: e instanceof Error ? e.message : String(e) });

  async function pass(): Promise<void> {
    if (Date.now() - lastSweep >= sweepMs) {
      lastSweep = Date.now();
      // A sweep that fails pass after pass (a damaged page) degrades /healthz instead of only logging.
      await sweepExpired(gw).then(
        () => taskSucceeded(gw, "expiry sweep"),
        (e) => (taskFailed(gw, "expiry sweep", e), log("expiry sweep failed", e)),
      );
    }
    const room = concurrency - shares.size;
    if (room <= 0) {
      gw.beats.set("notifier", Date.now()); // busy, not stalled
      return;
    }
    const settings = await gw.settings();
    const passCaps: Caps = {
      perMerchant: o.caps?.perMerchant ?? (settings.int("notify_per_merchant") || NOTIFY_PER_MERCHANT),
      perTarget: o.caps?.perTarget ?? (settings.int("notify_per_target") || NOTIFY_PER_TARGET),
    };
    caps = passCaps;
    const admitted: number[] = [];
    let refused = 0;
    const admit = (r: { id: number; pid: number; url: string }) => (shares.admit(r.id, r.pid, r.url, passCaps) ? admitted.push(r.id) > 0 : (refused++, false));
    let due: Notification[] = [];
    try {
      due = await gw.store.claimDueNotifications(gw.clock.nowMs(), room, leaseMs, { perMerchant: passCaps.perMerchant, admit });
    } finally {
      // A share whose row was not leased after all (the claim failed) goes back at once.
      const leased = new Set(due.map((n) => n.id));
      for (const id of admitted) if (!leased.has(id)) shares.release(id);
    }
    // Fewer rows than a merchant's share, none refused: the claim read every due row and took them all.
    behind = refused > 0 || due.length >= Math.min(room, passCaps.perMerchant);
    gw.beats.set("notifier", Date.now()); // /healthz: the loop ran and its claim reached the database
    for (const n of due) send(n);
  }

  /** One attempt of a row this worker leased and holds a share for. */
  function send(n: Notification): void {
    // The share is given back when the merchant has answered, not when the attempt is stored: the
    // endpoint is free then, and the acknowledgements are written in batches (a share held through
    // the batch's commit cut one merchant's throughput to 16 / that wait). The row stays leased until
    // its attempt is stored, so it is never sent twice; a freed share may let a due row of this
    // merchant or target go without waiting for the poll.
    const release = () => {
      if (!shares.has(n.id)) return;
      shares.release(n.id);
      if (!stopped && behind) wake(); // rows wait for a share: the claim may take one now
    };
    const p: Promise<unknown> = deliverOne(gw, n, o, release)
      .then((r) => gw.log.event("notify.attempt", { trade_no: n.tradeNo, family: n.family, attempt: n.attempts + 1, status: r.status, http: r.attempt.httpStatus, error: r.attempt.error }))
      .catch((e) => log(`delivery of ${n.tradeNo} failed`, e))
      .finally(() => {
        inflight.delete(p);
        release();
      });
    inflight.add(p);
  }

  // A payment's row taken as it is written (core/notify/handoff.ts): its share is held under a key
  // of its own until the commit names the row. Not while rows wait in the claim, nor past a cap.
  // stop() waits for them: a row leased here goes out (and its attempt is stored) before it returns.
  let nextKey = -1;
  let handing = 0; // rows leased here whose commit is still to answer
  let drained: PromiseWithResolvers<void> | null = null;
  const handed = () => {
    if (--handing > 0 || !drained) return;
    drained.resolve();
    drained = null;
  };
  function taker(): Taker | null {
    if (stopped || behind || !caps) return null;
    let key: number | null = null;
    const drop = () => {
      if (key === null) return;
      shares.release(key);
      key = null;
      handed();
    };
    return {
      lease(row) {
        drop(); // asked again (a rerun): the share is taken again for this row
        if (stopped || !caps || shares.size >= concurrency || !shares.admit(nextKey, row.pid, row.url, caps)) {
          behind = true; // the row is written due: the claim takes it, and rows after it, in order
          return null;
        }
        key = nextKey--;
        handing++;
        return gw.clock.nowMs() + leaseMs;
      },
      deliver(n) {
        if (key === null) return;
        if (!shares.rekey(key, n.id)) shares.release(key);
        key = null;
        send(n); // in flight before stop() looks
        handed();
      },
      cancel: drop,
    };
  }

  // Wake-ups are gathered per turn of the event loop: the payments of one group commit, and the
  // answers that arrive together, share one claim instead of one each.
  let scheduled = false;
  function wake(): void {
    if (stopped || scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      claimNow();
    });
  }

  // One claim pass at a time; a wake-up during a pass runs one more pass right after it.
  function claimNow(): void {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = pass()
      .then(() => taskSucceeded(gw, "notification claim"))
      .catch((e) => (taskFailed(gw, "notification claim", e), log("claim failed", e)))
      .finally(() => {
        claiming = null;
        if (again && !stopped) {
          again = false;
          wake();
        }
      });
  }

  const unsubscribe = gw.onNotificationQueued(wake);
  const untake = gw.onTakeNotification(taker);
  const timer = setInterval(wake, pollMs);
  wake(); // rows that fell due while no server ran go out at start

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      gw.beats.delete("notifier");
      unsubscribe();
      untake();
      await claiming;
      if (handing > 0) await (drained ??= Promise.withResolvers<void>()).promise; // rows taken as they were written, their commits still to answer
      // Attempts already sent are awaited so their outcome is recorded before the database closes.
      await Promise.all([...inflight]);
    },
  };
}

// The alert loop of `xpay serve`: every tick (a second) it sends due alert messages, every
// ALERT_EVAL_MS it evaluates the conditions (core/alerts/evaluate.ts), every hour it prunes old
// alert history. It has its own outbox and its own slots: a channel that is down or hangs holds at
// most PER_CHANNEL attempts of its own, never the merchant notification worker or another channel.
import { ALERT_LEASE_MS, deliverAlert, type DeliverOptions, PER_CHANNEL } from "../core/alerts/deliver.ts";
import { evaluateAlerts } from "../core/alerts/evaluate.ts";
import type { Gateway } from "../core/gateway.ts";
import { taskFailed, taskSucceeded } from "./background-health.ts";

export const ALERT_EVAL_MS = 15_000;
const PRUNE_MS = 3_600_000;
/** Attempts in flight at once over every channel. */
const ALERT_CONCURRENCY = 16;

export interface AlertLoopOptions extends DeliverOptions {
  tickMs?: number;
  evalMs?: number;
}

export function startAlerts(gw: Gateway, o: AlertLoopOptions = {}): { stop(): Promise<void> } {
  const evalMs = o.evalMs ?? ALERT_EVAL_MS;
  const inflight = new Set<Promise<unknown>>();
  const perChannel = new Map<number, number>();
  let stopped = false;
  let ticking: Promise<void> | null = null;
  let evaluating: Promise<void> | null = null;
  let lastEval = 0;
  let lastPrune = 0;
  const log = (what: string, e: unknown) => gw.log.error("alerts", { what, error: e instanceof Error ? e.message : String(e) });
  const release = (channelId: number) => ((perChannel.get(channelId) ?? 1) <= 1 ? perChannel.delete(channelId) : perChannel.set(channelId, perChannel.get(channelId)! - 1));

  function evaluate(): void {
    if (evaluating || stopped) return;
    lastEval = Date.now();
    evaluating = evaluateAlerts(gw, o)
      .then(() => taskSucceeded(gw, "alert evaluation"))
      .catch((e) => (taskFailed(gw, "alert evaluation", e), log("evaluation failed", e)))
      .finally(() => (evaluating = null));
  }

  async function send(): Promise<void> {
    const room = ALERT_CONCURRENCY - inflight.size;
    if (room > 0) {
      const taken: number[] = [];
      const admit = (channelId: number) => {
        if ((perChannel.get(channelId) ?? 0) >= PER_CHANNEL) return false;
        perChannel.set(channelId, (perChannel.get(channelId) ?? 0) + 1);
        taken.push(channelId);
        return true;
      };
      let rows: Awaited<ReturnType<typeof gw.store.alerts.claimDue>> = [];
      try {
        rows = await gw.store.alerts.claimDue(gw.clock.nowMs(), room, ALERT_LEASE_MS, { perChannel: PER_CHANNEL, admit });
      } finally {
        // A slot taken for a row that was not leased after all (another process took it) goes back.
        const leased = rows.map((r) => r.channelId);
        for (const c of taken) {
          const i = leased.indexOf(c);
          if (i >= 0) leased.splice(i, 1);
          else release(c);
        }
      }
      const channels = rows.length ? new Map((await gw.store.alerts.listChannels()).map((c) => [c.id, c])) : new Map();
      for (const row of rows) {
        const p: Promise<unknown> = deliverAlert(gw, row, channels.get(row.channelId), o)
          .catch((e) => log(`delivery of alert message ${row.id} failed`, e))
          .finally(() => (inflight.delete(p), release(row.channelId)));
        inflight.add(p);
      }
    }
    gw.beats.set("alerts", Date.now()); // /healthz: the loop ran and reached the database
  }

  function tick(): void {
    if (ticking || stopped) return;
    if (Date.now() - lastEval >= evalMs) evaluate();
    if (Date.now() - lastPrune >= PRUNE_MS) {
      lastPrune = Date.now();
      void prune(gw).catch((e) => log("prune failed", e));
    }
    ticking = send()
      .then(() => taskSucceeded(gw, "alert delivery"))
      .catch((e) => (taskFailed(gw, "alert delivery", e), log("claim failed", e)))
      .finally(() => (ticking = null));
  }

  const timer = setInterval(tick, o.tickMs ?? 1000);
  tick();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      gw.beats.delete("alerts");
      await ticking;
      await evaluating;
      // Attempts already sent are awaited, so their outcome is recorded before the database closes.
      await Promise.all([...inflight]);
    },
  };
}

/** Alert history older than attempt_retention_days (0 keeps it) goes, like notification attempts. */
async function prune(gw: Gateway): Promise<void> {
  const days = (await gw.settings()).int("attempt_retention_days");
  if (days > 0) await gw.store.alerts.prune(gw.clock.nowMs() - days * 86_400_000);
}

// The retention prune of `xpay serve` (core/retention.ts, the clients' online history of
// core/clients/prune.ts, the failed-login counters of core/admin/login-failures.ts): once at
// start, then every ten minutes.
// It runs beside the expiry sweep, not inside a request; a failing prune degrades /healthz.
import type { Gateway } from "../core/gateway.ts";
import { pruneLoginFailures } from "../core/admin/login-failures.ts";
import { pruneClientHistory } from "../core/clients/prune.ts";
import { pruneHistory } from "../core/retention.ts";
import { taskFailed, taskSucceeded } from "./background-health.ts";

export const PRUNE_EVERY_MS = 10 * 60_000;

export function startRetention(gw: Gateway, o: { everyMs?: number } = {}): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  const run = () => {
    if (running) return;
    running = pruneHistory(gw)
      .then(async (n) => ({ ...n, clientHistory: await pruneClientHistory(gw), loginFailures: await pruneLoginFailures(gw) }))
      .then((n) => {
        taskSucceeded(gw, "retention");
        if (n.reports || n.attempts || n.counters || n.clientHistory || n.loginFailures) {
          gw.log.event("retention", { reports: n.reports, attempts: n.attempts, counters: n.counters, client_history: n.clientHistory, login_failures: n.loginFailures });
        }
      })
      .catch((e) => {
        taskFailed(gw, "retention", e);
        gw.log.error("retention", { error: e instanceof Error ? e.message : String(e) });
      })
      .finally(() => (running = null));
  };
  const timer = setInterval(run, o.everyMs ?? PRUNE_EVERY_MS);
  run();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

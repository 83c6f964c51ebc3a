// `xpay serve` refuses to run on a damaged database file. Without this, a page damaged in the
// middle of the orders table showed only when a query read it: the expiry sweep logged an error
// every 15 s while /healthz said ok and payments on that page failed.
import type { Gateway } from "../core/gateway.ts";
import { taskFailed } from "./background-health.ts";
import type { Background } from "./serve.ts";

/** How long serve waits for the check before it starts anyway and takes the answer later. */
export const START_CHECK_WAIT_MS = 10_000;
const MAX_FINDINGS = 5;

export class DatabaseDamagedError extends Error {}

const summary = (problems: string[]) => problems.slice(0, 2).join("; ").replace(/\s+/g, " ").slice(0, 300);

/** Throws DatabaseDamagedError on a damaged file; returns the check still running on a big one. */
export async function checkDatabaseAtStart(gw: Gateway, waitMs = START_CHECK_WAIT_MS): Promise<Background | null> {
  if (!gw.store.checkIntegrity) return null;
  const started = Date.now();
  const r = await gw.store.checkIntegrity({ maxErrors: MAX_FINDINGS, timeoutMs: waitMs });
  if (r.state === "damaged") throw new DatabaseDamagedError(summary(r.problems));
  if (r.state === "not checked") gw.log.error("db.check", { error: `the start check could not run: ${r.reason}` });
  if (r.state === "ok") gw.log.event("db.check", { result: "ok", ms: Date.now() - started });
  if (r.state !== "unfinished") return null;
  // A large file: serve now, and let /healthz say so at once if the check finds damage later.
  gw.log.event("db.check", { result: `still running after ${waitMs} ms; serving meanwhile` });
  void r.result.then((final) => {
    if (final.state === "damaged") {
      const detail = `database file is damaged (${summary(final.problems)}); stop xpay and restore the last backup`;
      gw.log.error("db.check", { error: detail });
      taskFailed(gw, "database check", detail, { degrade: true });
    } else gw.log.event("db.check", { result: final.state === "ok" ? "ok" : `not checked: ${final.reason}`, ms: Date.now() - started });
  });
  return { stop: async () => r.cancel() };
}

// Background work that keeps failing makes /healthz degrade. A loop that stops beating already
// reads "stalled"; this catches the loops that keep running and keep failing: an expiry sweep or
// a prune that hits a damaged page every pass, while requests on other pages still work.
import type { Gateway } from "../core/gateway.ts";

/** Consecutive failures of one task after which /healthz answers 503 (one transient error does not). */
export const FAILURES_BEFORE_DEGRADED = 3;

interface Failing {
  count: number;
  error: string;
  since: number;
  /** A finding (the start check found damage), not a transient error: degraded at once. */
  finding: boolean;
}

const byGateway = new WeakMap<Gateway, Map<string, Failing>>();

function table(gw: Gateway): Map<string, Failing> {
  let t = byGateway.get(gw);
  if (!t) byGateway.set(gw, (t = new Map()));
  return t;
}

export function taskFailed(gw: Gateway, task: string, e: unknown, o: { degrade?: boolean } = {}): void {
  const t = table(gw);
  const f = t.get(task) ?? { count: 0, error: "", since: Date.now(), finding: false };
  f.count++;
  f.error = (e instanceof Error ? e.message : String(e)).replace(/\s+/g, " ").slice(0, 300);
  f.finding ||= o.degrade === true;
  t.set(task, f);
}

export function taskSucceeded(gw: Gateway, task: string): void {
  byGateway.get(gw)?.delete(task);
}

/** What /healthz shows: each task failing now, and whether one of them degrades the service. */
export function failingTasks(gw: Gateway): { degraded: boolean; tasks: Record<string, string> } {
  const tasks: Record<string, string> = {};
  let degraded = false;
  for (const [task, f] of table(gw)) {
    tasks[task] = f.finding ? f.error : `failed ${f.count} time(s) in a row since ${new Date(f.since).toISOString()}: ${f.error}`;
    if (f.finding || f.count >= FAILURES_BEFORE_DEGRADED) degraded = true;
  }
  return { degraded, tasks };
}

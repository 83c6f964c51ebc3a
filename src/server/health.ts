// GET /healthz: database writable, background loops beating and not failing over and over,
// version. 200 when all is well, 503 otherwise (with the reason), so a load balancer or systemd
// watchdog can act on it.
import { Elysia } from "elysia";
import pkg from "../../package.json";
import { backupHealth, backupStatus } from "../core/backup-status.ts";
import type { Gateway } from "../core/gateway.ts";
import { json } from "../protocols/http.ts";
import { failingTasks } from "./background-health.ts";

const STALE_MS = 10_000;

export function healthPlugin(gw: Gateway) {
  return new Elysia({ name: "xpay-health" }).get("/healthz", async () => {
    let db = "ok";
    try {
      await gw.store.probeWrite();
    } catch (e) {
      db = `not writable: ${e instanceof Error ? e.message : String(e)}`;
    }
    const now = Date.now();
    const loops = Object.fromEntries([...gw.beats].map(([name, at]) => [name, now - at < STALE_MS ? "alive" : `stalled ${Math.round((now - at) / 1000)}s`]));
    const failing = failingTasks(gw);
    const reasons = [
      ...(db === "ok" ? [] : [`database ${db}`]),
      ...Object.entries(loops).filter(([, v]) => v !== "alive").map(([name, v]) => `${name} ${v}`),
      ...(failing.degraded ? Object.entries(failing.tasks).map(([task, v]) => `${task}: ${v}`) : []),
    ];
    const healthy = reasons.length === 0;
    const backups = backupStatus(gw);
    // serve's backup schedule, when it runs one: reported, never a reason for 503 (backup-loop.ts).
    const body = { status: healthy ? "ok" : "degraded", version: pkg.version, db, workers: loops, ...(backups ? { backup: backupHealth(backups) } : {}) };
    // Present only when something is wrong, so a healthy answer keeps its usual shape.
    const extra = { ...(Object.keys(failing.tasks).length ? { failing: failing.tasks } : {}), ...(healthy ? {} : { reason: reasons.join("; ") }) };
    return json({ ...body, ...extra }, healthy ? 200 : 503);
  });
}

// GET /healthz: database writable, background loops beating, version. 200 when all is well,
// 503 otherwise, so a load balancer or systemd watchdog can act on it.
import { Elysia } from "elysia";
import pkg from "../../package.json";
import type { Gateway } from "../core/gateway.ts";
import { json } from "../protocols/http.ts";

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
    const healthy = db === "ok" && Object.values(loops).every((v) => v === "alive");
    return json({ status: healthy ? "ok" : "degraded", version: pkg.version, db, workers: loops }, healthy ? 200 : 503);
  });
}

// GET /metrics: the gateway's Prometheus registry in the text exposition format. Who may read it
// is the operator's choice (settings metrics_token, metrics_enabled):
// - metrics_token set: any address with `Authorization: Bearer <token>` (compared in constant
//   time), for a Prometheus on another machine;
// - no token: loopback peers only (127.0.0.0/8, ::1), judged by the address the --trust-proxy
//   rule gives; without --trust-proxy a request that carries forwarding headers came through a
//   local proxy from somewhere else, and is refused too (nginx on the same box connects from
//   127.0.0.1 for every visitor). The socket peer must be loopback as well: behind --trust-proxy
//   X-Forwarded-For is whatever a stranger who reaches the port directly wrote ("127.0.0.1").
// The counters say how much money moves and which merchants' endpoints fail: never public.
import { createHash, timingSafeEqual } from "node:crypto";
import { Elysia } from "elysia";
import type { Gateway } from "../../core/gateway.ts";
import { noMetrics } from "../../core/metrics.ts";
import { json, peerIp, socketIp } from "../../protocols/http.ts";
import { installMetrics, metricsOf } from "./registry.ts";

type Server = Parameters<typeof peerIp>[1];

export function isLoopback(ip: string): boolean {
  const v4 = ip.startsWith("::ffff:") ? ip.slice(7) : ip;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4) || ip === "::1";
}

const digest = (s: string) => createHash("sha256").update(s).digest();

function bearerMatches(header: string | null, token: string): boolean {
  const m = /^Bearer ([^\s]+)$/i.exec(header ?? "");
  // Digests of equal length whatever was sent: the comparison time says nothing about the token.
  return m !== null && timingSafeEqual(digest(m[1]!), digest(token));
}

const FORWARDING = ["x-forwarded-for", "forwarded", "x-real-ip"];

/** Why this request may not read /metrics (with its HTTP status); null when it may. */
export function metricsRefusal(gw: Gateway, request: Request, server: Server, token: string): { status: number; message: string } | null {
  if (token !== "") {
    return bearerMatches(request.headers.get("authorization"), token) ? null : { status: 401, message: "/metrics needs Authorization: Bearer <metrics_token>" };
  }
  if (gw.proxyHops === 0 && FORWARDING.some((h) => request.headers.has(h))) {
    return { status: 403, message: "/metrics answers loopback clients only, and this request came through a proxy: set metrics_token, or run xpay serve --trust-proxy" };
  }
  if (!isLoopback(socketIp(request, server)) || !isLoopback(peerIp(request, server, gw.proxyHops))) return { status: 403, message: "/metrics answers loopback clients only; set metrics_token to scrape it from another machine" };
  return null;
}

export function metricsPlugin(gw: Gateway) {
  const metrics = installMetrics(gw);
  return new Elysia({ name: "xpay-metrics" }).get(
    "/metrics",
    async ({ request, server }) => {
      const s = await gw.settings();
      if (s.str("metrics_enabled") !== "1") return json({ code: 404, msg: "not found", data: null }, 404);
      const refused = metricsRefusal(gw, request, server, s.str("metrics_token"));
      if (refused) {
        const res = new Response(`${refused.message}\n`, { status: refused.status, headers: { "content-type": "text/plain; charset=utf-8" } });
        if (refused.status === 401) res.headers.set("www-authenticate", 'Bearer realm="xpay metrics"');
        return res;
      }
      // Turned on while the server runs (it started with metrics_enabled 0): counting starts now.
      if (gw.metrics === noMetrics) gw.metrics = metricsOf(gw);
      return new Response(await metrics.registry.metrics(), { headers: { "content-type": metrics.registry.contentType, "cache-control": "no-store" } });
    },
    { detail: { summary: "Prometheus metrics (loopback, or Authorization: Bearer metrics_token)", tags: ["operations"] } },
  );
}

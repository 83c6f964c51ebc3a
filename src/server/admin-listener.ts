// Where `xpay serve` puts the operator console: under /admin on the main listener (the default),
// nowhere (--no-admin), or on a listener of its own (--admin-host/--admin-port, e.g. 127.0.0.1 only
// behind an SSH tunnel or a separate nginx site); then the main listener has no /admin at all.
import { Elysia } from "elysia";
import { adminPlugin } from "../admin/plugin.ts";
import type { Gateway } from "../core/gateway.ts";
import { maskUrlPath } from "../core/log.ts";
import { json, socketIp } from "../protocols/http.ts";
import { faviconPlugin } from "./favicon.ts";

export type AdminPlacement = "main" | "off" | { host: string; port: number };

/** The console alone (and its tab icon): any other path outside /admin is the main app's JSON 404. */
export function buildAdminApp(gw: Gateway) {
  return new Elysia()
    .onError(({ code, error }) => {
      if (code === "NOT_FOUND") return json({ code: 404, msg: "not found", data: null }, 404);
      gw.log.error("unhandled", { message: error instanceof Error ? error.message : String(error) });
      return json({ code: 500, msg: "internal error", data: null }, 500);
    })
    .use(faviconPlugin())
    .use(adminPlugin(gw));
}

export interface AdminListener {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** Starts the console's own listener, with the same access-log line as the main one. */
export function startAdminListener(gw: Gateway, at: { host: string; port: number }): AdminListener {
  const app = buildAdminApp(gw);
  const server = Bun.serve({
    port: at.port,
    hostname: at.host,
    maxRequestBodySize: 1024 * 1024,
    async fetch(req, srv) {
      const started = performance.now();
      socketIp(req, srv);
      const res = await app.fetch(req);
      const path = req.url.slice(req.url.indexOf("/", req.url.indexOf("//") + 2));
      gw.log.event("http", { listener: "admin", method: req.method, path: maskUrlPath(path), status: res.status, ms: Math.round((performance.now() - started) * 10) / 10, ip: socketIp(req, srv) });
      return res;
    },
  });
  (app as unknown as { server: typeof server }).server = server; // peerIp reads the socket address through it
  const shown = at.host === "0.0.0.0" || at.host === "::" ? "127.0.0.1" : at.host.includes(":") && !at.host.startsWith("[") ? `[${at.host}]` : at.host;
  return {
    url: `http://${shown}:${server.port}`,
    port: server.port!,
    stop: () => server.stop(),
  };
}

// Runs the HTTP server (and, once wired, the notification worker) until SIGINT/SIGTERM.
import type { Gateway } from "../core/gateway.ts";
import { maskUrlPath } from "../core/log.ts";
import { noMetrics } from "../core/metrics.ts";
import { prepareTableSoon } from "../core/payment-formats.ts";
import { socketIp } from "../protocols/http.ts";
import { ensurePlatformKeys } from "../core/platform-keys.ts";
import type { AnyElysia } from "elysia";
import { buildApp } from "./app.ts";
import { startAlerts } from "./alert-loop.ts";
import { taskFailed, taskSucceeded } from "./background-health.ts";
import { startRetention } from "./retention-loop.ts";
import { type BackupScheduleOptions, startBackups } from "./backup-loop.ts";
import { readTls, type TlsFiles } from "./tls-files.ts";
import { checkDatabaseAtStart } from "./start-check.ts";
import { type AdminPlacement, startAdminListener } from "./admin-listener.ts";
import { startWorker, type WorkerOptions } from "./worker.ts";

export interface RunningServer {
  url: string;
  port: number;
  /** The console's own listener, when it has one (ServeOptions.admin). */
  adminUrl?: string;
  stop(): Promise<void>;
  /** With TLS: load the certificate files again and serve them to new connections. */
  reloadTls?(): Promise<void>;
}

export interface ServeOptions {
  port: number;
  host: string;
  /** How long to wait for the start check of the database file (default START_CHECK_WAIT_MS). */
  checkWaitMs?: number;
  /** The operator console: under /admin here (default), off, or on a listener of its own. */
  admin?: AdminPlacement;
  /** HTTPS on the main listener from these PEM files (re-read by reloadTls). */
  tls?: TlsFiles;
  /** serve's backup schedule (backup-loop.ts). */
  backups?: BackupScheduleOptions;
  /** What `xpay dev` adds to the same server; `xpay serve` passes none. */
  extras?: ServeExtras;
}

export interface ServeExtras {
  /** Routes mounted after the gateway's own (buildApp). */
  plugins?: readonly AnyElysia[];
  /** Every answer passes through it before it is sent (xpay dev marks each one as test mode). */
  decorate?: (request: Request, response: Response) => Response | Promise<Response>;
  /** Options of the notification worker (xpay dev: a compressed retry schedule). */
  worker?: WorkerOptions;
}

/** A background loop started with the server and stopped before the database closes. */
export interface Background {
  stop(): Promise<void>;
}

export const backgroundStarters: ((gw: Gateway, o: ServeOptions) => Background)[] = [
  (gw) => startStoreBackground(gw),
  (gw, o) => startWorker(gw, o.extras?.worker),
  (gw) => startRetention(gw),
  (gw) => startAlerts(gw),
  (gw, o) => (o.backups ? startBackups(gw, o.backups) : { stop: async () => {} }),
];

/** The store's own loops (SQLite: the checkpoint thread); they beat into /healthz like the worker. */
function startStoreBackground(gw: Gateway): Background {
  const names = new Set<string>();
  const started = gw.store.startBackground?.({
    onBeat: (name) => (gw.beats.set(name, Date.now()), names.add(name), taskSucceeded(gw, "store background")),
    onError: (message) => (gw.log.error("store.background", { message }), taskFailed(gw, "store background", message)),
  });
  return {
    async stop() {
      await started?.stop();
      for (const name of names) gw.beats.delete(name);
    },
  };
}

export async function startServer(gw: Gateway, o: ServeOptions): Promise<RunningServer> {
  // Fail at start, not at the first payment, when the database is damaged or cannot take writes.
  const check = await checkDatabaseAtStart(gw, o.checkWaitMs);
  await gw.store.probeWrite();
  await ensurePlatformKeys(gw.store);
  // Started with metrics_enabled 0: nothing is counted (the route turns counting on if it is set to 1).
  const countMetrics = (await gw.settings()).str("metrics_enabled") === "1";
  const app = buildApp(gw, o.extras?.plugins, { admin: (o.admin ?? "main") === "main" });
  const decorate = o.extras?.decorate;
  // Elysia's own fetch is wrapped only to write one access-log line per request.
  const fetch = async (req: Request, srv: Bun.Server<undefined>) => {
    const started = performance.now();
    socketIp(req, srv); // cached for the handlers' peerIp (auth throttle, clientip) and the log line
    const answer = await app.fetch(req);
    const res = decorate ? await decorate(req, answer) : answer;
    const url = req.url;
    const path = url.slice(url.indexOf("/", url.indexOf("//") + 2));
    const ms = performance.now() - started;
    gw.metrics.httpRequest(path, ms / 1000);
    gw.log.event("http", { method: req.method, path: maskUrlPath(path), status: res.status, ms: Math.round(ms * 10) / 10, ip: socketIp(req, srv) });
    return res;
  };
  const listen = (port: number) =>
    Bun.serve({
      port,
      hostname: o.host,
      maxRequestBodySize: 2 * 1024 * 1024,
      fetch,
      // With TLS the listener is replaced on SIGHUP (tls-files.ts): the new one binds beside the old.
      ...(o.tls ? { tls: readTls(o.tls), reusePort: true } : {}),
    });
  let server = listen(o.port);
  // Handlers read the payer's address through Elysia's `server` (peerIp); Elysia only sets it
  // itself in app.listen(), and this server wraps app.fetch for the access log.
  (app as unknown as { server: typeof server }).server = server;
  if (!countMetrics) gw.metrics = noMetrics;
  let admin;
  try {
    admin = typeof o.admin === "object" ? startAdminListener(gw, o.admin) : null;
  } catch (e) {
    server.stop(true);
    throw e;
  }
  const loops = [...backgroundStarters.map((start) => start(gw, o)), ...(check ? [check] : [])];
  // The payment-message table compiled and warmed now, a pattern per turn, not on the first phone report.
  prepareTableSoon();
  return {
    url: `${o.tls ? "https" : "http"}://${o.host}:${server.port}`,
    port: server.port!,
    adminUrl: admin?.url,
    async stop() {
      await Promise.all([server.stop(), admin?.stop()]); // finish in-flight requests, accept no new ones
      await Promise.all(loops.map((l) => l.stop()));
    },
    ...(o.tls
      ? {
          async reloadTls() {
            // Bun's server.reload() keeps the certificate it started with (1.4.5): a second listener
            // on the same port (SO_REUSEPORT) takes the new files, then the old one finishes its
            // requests and closes. Files that do not load leave the old listener as it was.
            const next = listen(server.port!);
            const old = server;
            server = next;
            (app as unknown as { server: typeof server }).server = next;
            await old.stop();
          },
        }
      : {}),
  };
}

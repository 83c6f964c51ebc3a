// Runs the HTTP server (and, once wired, the notification worker) until SIGINT/SIGTERM.
import type { Gateway } from "../core/gateway.ts";
import { ensurePlatformKeys } from "../core/platform-keys.ts";
import { buildApp } from "./app.ts";

export interface RunningServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface ServeOptions {
  port: number;
  host: string;
}

/** A background loop started with the server and stopped before the database closes. */
export interface Background {
  stop(): Promise<void>;
}

export const backgroundStarters: ((gw: Gateway) => Background)[] = [];

export async function startServer(gw: Gateway, o: ServeOptions): Promise<RunningServer> {
  await ensurePlatformKeys(gw.store);
  const app = buildApp(gw);
  const server = Bun.serve({ port: o.port, hostname: o.host, fetch: (req, srv) => app.handle(req), maxRequestBodySize: 2 * 1024 * 1024 });
  const loops = backgroundStarters.map((start) => start(gw));
  return {
    url: `http://${o.host}:${server.port}`,
    port: server.port!,
    async stop() {
      await server.stop(); // finishes in-flight requests, accepts no new ones
      await Promise.all(loops.map((l) => l.stop()));
    },
  };
}

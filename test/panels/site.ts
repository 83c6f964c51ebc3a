// A panel's web server on a free port of 127.0.0.1: its notify route answers as the panel's
// controller does, and every request is kept with the raw query string the PHP would parse.
import type { Server } from "bun";

export interface Hit {
  method: string;
  path: string;
  /** The raw query string, as PHP's $_SERVER['QUERY_STRING'] (no leading `?`). */
  query: string;
  body: string;
  status: number;
  answer: string;
}

export type Route = (req: { method: string; path: string; query: string; body: string }) => { status?: number; body: string };

export interface PanelSite {
  origin: string;
  hits: Hit[];
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  stop(): void;
}

export function startPanelSite(route: Route): PanelSite {
  const hits: Hit[] = [];
  let waiters: (() => void)[] = [];
  const server: Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const raw = req.url.includes("?") ? req.url.slice(req.url.indexOf("?") + 1) : "";
      const body = req.method === "POST" ? await req.text() : "";
      const r = route({ method: req.method, path: url.pathname, query: raw, body });
      const status = r.status ?? 200;
      hits.push({ method: req.method, path: url.pathname, query: raw, body, status, answer: r.body });
      for (const w of waiters) w();
      return new Response(r.body, { status, headers: { "content-type": "text/html; charset=utf-8" } });
    },
  });
  return {
    origin: `http://127.0.0.1:${server.port}`,
    hits,
    waitFor(count, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${hits.length} of ${count} requests arrived`)), timeoutMs);
        const check = () => {
          if (hits.length >= count) {
            clearTimeout(timer);
            waiters = waiters.filter((w) => w !== check);
            resolve();
          }
        };
        waiters.push(check);
        check();
      });
    },
    stop: () => void server.stop(true),
  };
}

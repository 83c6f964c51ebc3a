// A merchant's notification endpoint on a real port: records every request and answers from a
// script ("fail", "fail", "success", ...), the last answer repeating.
import type { Server } from "bun";

export interface Received {
  method: string;
  params: Record<string, string>;
  contentType: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Resolves when `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  stop(): void;
}

export function startReceiver(answers: (string | Response)[] = ["success"]): Receiver {
  const received: Received[] = [];
  let waiters: (() => void)[] = [];
  const server: Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const body = req.method === "POST" ? await req.text() : url.search.slice(1);
      received.push({ method: req.method, params: Object.fromEntries(new URLSearchParams(body)), contentType: req.headers.get("content-type") ?? "" });
      for (const w of waiters) w();
      const a = answers[Math.min(received.length - 1, answers.length - 1)]!;
      return typeof a === "string" ? new Response(a) : a;
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/notify`,
    received,
    waitFor(count, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${received.length} of ${count} notifications arrived`)), timeoutMs);
        const check = () => {
          if (received.length >= count) {
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

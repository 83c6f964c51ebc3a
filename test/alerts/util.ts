// Shared by the alert tests: a local receiver on 127.0.0.1 that records every request exactly
// (method, path, query, headers, raw body) and answers from a script, a gateway with one webhook
// channel pointed at it, and one evaluation + delivery pass driven by the ManualClock.
import type { Server } from "bun";
import { deliverAlerts } from "../../src/core/alerts/deliver.ts";
import { evaluateAlerts } from "../../src/core/alerts/evaluate.ts";
import type { AlertChannel, ChannelType } from "../../src/core/alerts/store.ts";
import { type Harness, harness, seed } from "../helpers.ts";

export interface Recorded {
  method: string;
  /** Path and query exactly as sent. */
  target: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: string;
  at: number;
}

export interface Sink {
  url: string;
  port: number;
  got: Recorded[];
  /** The JSON bodies of the webhook requests received. */
  json(): any[];
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  stop(): void;
}

/** Answers: each request takes the next; the last repeats. A function answers by itself. */
export function sink(answers: (string | Response | (() => Response | Promise<Response>))[] = ["ok"]): Sink {
  const got: Recorded[] = [];
  let waiters: (() => void)[] = [];
  const server: Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const u = new URL(req.url);
      got.push({ method: req.method, target: u.pathname + u.search, path: u.pathname, query: u.searchParams, headers: req.headers, body: await req.text(), at: Date.now() });
      for (const w of waiters) w();
      const a = answers[Math.min(got.length - 1, answers.length - 1)]!;
      const r = typeof a === "function" ? await a() : a;
      return typeof r === "string" ? new Response(r) : r.clone();
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    port: server.port!,
    got,
    json: () => got.map((g) => JSON.parse(g.body)),
    waitFor(count, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${got.length} of ${count} requests arrived`)), timeoutMs);
        const check = () => {
          if (got.length < count) return;
          clearTimeout(timer);
          waiters = waiters.filter((w) => w !== check);
          resolve();
        };
        waiters.push(check);
        check();
      });
    },
    stop: () => void server.stop(true),
  };
}

export const WEBHOOK_SECRET = "0123456789abcdef0123456789abcdef";

export async function addChannel(h: Harness, name: string, type: ChannelType, config: Record<string, string>): Promise<AlertChannel> {
  const r = await h.gw.store.alerts.addChannel({ name, type, config, now: h.clock.now() });
  if (r.kind !== "added") throw new Error(r.reason);
  return r.channel;
}

/** A seeded gateway (merchant 1001, one alipay account) with a webhook channel to a fresh sink. */
export async function alertHarness(answers?: (string | Response)[]) {
  const h = harness();
  const seeded = await seed(h);
  const s = sink(answers);
  await addChannel(h, "hook", "webhook", { url: `${s.url}/alerts`, secret: WEBHOOK_SECRET });
  return { h, s, ...seeded, close: () => (s.stop(), h.close()) };
}

/** One evaluation and one delivery pass; returns the alert bodies the sink got in this pass. */
export async function pass(h: Harness, s: Sink): Promise<any[]> {
  const before = s.got.length;
  await evaluateAlerts(h.gw);
  await deliverAlerts(h.gw);
  return s.json().slice(before);
}

export { harness };

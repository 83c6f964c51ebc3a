// `xpay dev` as a merchant developer runs it: a real child process, its quick start read from
// stdout the way a person (or a CI script) reads it. Shared by the process, docs and e2e tests.
import { resolve } from "node:path";

export const ROOT = resolve(import.meta.dir, "..", "..");

export interface DevProcess {
  proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  /** Everything printed so far. */
  out(): string;
  base: string;
  pid: string;
  secret: string;
  vmqKey: string;
  keysDir: string;
  db: string;
  /** The printed `curl ... /xpay/order/create ...` line. */
  curl: string;
  /** The printed pay line, with TRADE_NO to replace. */
  payLine: string;
  stop(signal?: NodeJS.Signals): Promise<number>;
}

const field = (out: string, label: string) => {
  const m = new RegExp(`^\\s*${label}\\s+(\\S+)`, "m").exec(out);
  if (!m) throw new Error(`no "${label}" line in:\n${out}`);
  return m[1]!;
};

export async function startDev(args: string[] = [], env: Record<string, string> = {}): Promise<DevProcess> {
  const proc = Bun.spawn([process.execPath, "src/cli/main.ts", ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: "1", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  let out = "";
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  // The quick start ends with the "stop: Ctrl-C" line; log lines follow it.
  while (!out.includes("stop: Ctrl-C")) {
    const chunk = await reader.read();
    if (chunk.done) throw new Error(`xpay dev stopped before it was ready:\n${out}\n${await new Response(proc.stderr).text()}`);
    out += decoder.decode(chunk.value, { stream: true });
  }
  void (async () => {
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (chunk.done) return;
      out += decoder.decode(chunk.value, { stream: true });
    }
  })();
  const base = /^listening\s+(http:\/\/\S+)/m.exec(out)![1]!;
  return {
    proc,
    out: () => out,
    base,
    pid: field(out, "pid"),
    secret: field(out, "AppSecret"),
    vmqKey: field(out, "V免签 key"),
    keysDir: field(out, "V2 keys").replace(/\/$/, ""),
    db: field(out, "database"),
    curl: /^\s*(curl -s \S+\/xpay\/order\/create .*)$/m.exec(out)![1]!,
    payLine: /^\s*(curl -s -X POST \S+\/dev\/orders\/TRADE_NO\/pay)$/m.exec(out)![1]!,
    async stop(signal = "SIGTERM") {
      if (proc.exitCode === null) proc.kill(signal);
      return await Promise.race([proc.exited, Bun.sleep(10_000).then(() => (proc.kill("SIGKILL"), -1))]);
    },
  };
}

/** A merchant's notify endpoint: records every request; a path may answer "fail" the first N times. */
export interface HookServer {
  url(path: string): string;
  received(path: string): { method: string; query: URLSearchParams; body: string; at: number }[];
  waitFor(path: string, count: number, timeoutMs?: number): Promise<{ method: string; query: URLSearchParams; body: string; at: number }[]>;
  failFirst(path: string, times: number): void;
  stop(): void;
}

export function startHooks(): HookServer {
  const seen = new Map<string, { method: string; query: URLSearchParams; body: string; at: number }[]>();
  const failures = new Map<string, number>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const list = seen.get(url.pathname) ?? [];
      list.push({ method: req.method, query: url.searchParams, body: await req.text(), at: Date.now() });
      seen.set(url.pathname, list);
      const left = failures.get(url.pathname) ?? 0;
      if (left > 0) {
        failures.set(url.pathname, left - 1);
        return new Response("fail");
      }
      return new Response("success");
    },
  });
  return {
    url: (path) => `http://127.0.0.1:${server.port}${path}`,
    received: (path) => seen.get(path) ?? [],
    async waitFor(path, count, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while ((seen.get(path)?.length ?? 0) < count) {
        if (Date.now() > until) throw new Error(`${path}: ${seen.get(path)?.length ?? 0} of ${count} notifications after ${timeoutMs} ms`);
        await Bun.sleep(20);
      }
      return seen.get(path)!;
    },
    failFirst: (path, times) => void failures.set(path, times),
    stop: () => void server.stop(true),
  };
}

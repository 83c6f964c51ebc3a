// The one sender of every channel: build the vendor's exact request (channels/*), send it with a
// deadline, read at most 64 KiB of the answer, and judge it by the vendor's own success flag. A
// channel that refuses connections fails at once; one that hangs fails at the deadline. Secrets
// (tokens, sign keys, passwords) are scrubbed from whatever is kept of the answer or the error.
import { readCapped } from "../../read-capped.ts";
import type { AlertAttempt, AlertChannel } from "../store.ts";
import type { AlertMessage } from "../types.ts";
import { CHANNEL_KINDS, secretsOf } from "./index.ts";

/** Per attempt; also caps a lookup, the TLS handshake and the SMTP dialogue. */
export const ALERT_TIMEOUT_MS = 10_000;

export interface SendOptions {
  nowMs: number;
  timeoutMs?: number;
  /** Tests inject a fetch; the default is the global one. */
  fetch?: typeof fetch;
}

/** Replaces every secret (and its URL-encoded form) with ***. */
export function scrub(text: string, secrets: string[]): string {
  let out = text;
  for (const s of secrets) {
    if (s.length < 4) continue;
    for (const form of new Set([s, encodeURIComponent(s)])) out = out.split(form).join("***");
  }
  return out;
}

type Outcome = Omit<AlertAttempt, "attemptedAt" | "durationMs">;

async function sendHttp(ch: AlertChannel, m: AlertMessage, o: SendOptions, timeoutMs: number): Promise<Outcome> {
  const kind = CHANNEL_KINDS[ch.type];
  const req = kind.request!(ch.config, m, o.nowMs);
  try {
    const res = await (o.fetch ?? fetch)(req.url, { method: req.method, headers: req.headers, body: req.body, redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
    const answer = new TextDecoder("utf-8", { fatal: false }).decode(await readCapped(res));
    const vendor = kind.answer ? kind.answer(answer) : { ok: true, error: "" };
    const ok2xx = res.status >= 200 && res.status < 300;
    const error = ok2xx ? vendor.error : `HTTP ${res.status}${vendor.error && !vendor.error.startsWith("answer is not") ? `: ${vendor.error}` : ""}`;
    return { ok: ok2xx && vendor.ok, httpStatus: res.status, answer: answer.slice(0, 512), error };
  } catch (e) {
    const name = e instanceof Error ? e.name : "";
    const error = name === "TimeoutError" || name === "AbortError" ? `timed out after ${timeoutMs} ms` : e instanceof Error ? e.message : String(e);
    return { ok: false, httpStatus: null, answer: "", error: error.slice(0, 300) };
  }
}

/** One attempt through one channel; never throws. */
export async function sendThrough(ch: AlertChannel, m: AlertMessage, o: SendOptions): Promise<AlertAttempt> {
  const kind = CHANNEL_KINDS[ch.type];
  const timeoutMs = o.timeoutMs ?? ALERT_TIMEOUT_MS;
  const t0 = performance.now();
  let out: Outcome;
  if (!kind) out = { ok: false, httpStatus: null, answer: "", error: `unknown channel type ${ch.type}` };
  else if (kind.request) out = await sendHttp(ch, m, o, timeoutMs);
  else {
    // The transport's own timeouts bound each step; this bounds the whole dialogue as well.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<Outcome>((r) => (timer = setTimeout(() => r({ ok: false, httpStatus: null, answer: "", error: `timed out after ${timeoutMs * 2} ms` }), timeoutMs * 2)));
    out = await Promise.race([kind.send!(ch.config, m, { timeoutMs }), late]).finally(() => clearTimeout(timer));
  }
  const secrets = secretsOf(ch.type, ch.config);
  return { attemptedAt: o.nowMs, durationMs: Math.round(performance.now() - t0), ...out, answer: scrub(out.answer, secrets), error: scrub(out.error, secrets) };
}

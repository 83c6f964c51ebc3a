// Repeated identical notification failures as one timeline entry. A merchant whose server is down
// for a day gets a failed attempt on every retry; listed one by one, 13 identical ECONNREFUSED
// cards push the rest of the order's history 1,800 px down a phone. Folded, they read "failed 13
// times, last …" with the first and last time, and the page can still list each attempt.
//
// The rule: a run of two or more ADJACENT events (in timeline order) that are all failed attempts
// (not acknowledged by the merchant) with the same HTTP status, the same error and the same answer
// becomes one `notify_failures` event at the time of the first. Anything between them (an
// operator's resend, a report) ends the run, so the history still says what happened in between;
// a different answer or error starts a new run, so no failure is hidden behind another's text.
// Pure: events in, events out; the order's page applies it (core/browse/order-detail.ts).
import type { TimelineEvent } from "./timeline.ts";

/** Fold runs of at least this many identical failures (one alone stays as it is). */
export const FOLD_MIN = 2;

/** The fields that make two failed attempts the same failure (time and duration differ by nature). */
function failureKey(e: TimelineEvent): string | null {
  if (e.kind !== "notify_attempt" || e.detail.acknowledged) return null;
  return JSON.stringify([e.detail.http_status ?? null, e.detail.error ?? "", e.detail.answer ?? ""]);
}

function fold(run: TimelineEvent[]): TimelineEvent {
  const first = run[0]!;
  const last = run.at(-1)!;
  return {
    atMs: first.atMs,
    kind: "notify_failures",
    detail: {
      count: run.length,
      first_at_ms: first.atMs,
      last_at_ms: last.atMs,
      http_status: last.detail.http_status ?? null,
      error: last.detail.error ?? "",
      answer: last.detail.answer ?? "",
    },
    folded: run,
  };
}

export function foldRepeatedFailures(events: readonly TimelineEvent[], min = FOLD_MIN): TimelineEvent[] {
  const out: TimelineEvent[] = [];
  let run: TimelineEvent[] = [];
  let runKey: string | null = null;
  const flush = () => {
    if (run.length >= min) out.push(fold(run));
    else out.push(...run);
    run = [];
    runKey = null;
  };
  for (const e of events) {
    const key = failureKey(e);
    if (key !== null && key === runKey) {
      run.push(e);
      continue;
    }
    flush();
    if (key === null) out.push(e);
    else {
      run = [e];
      runKey = key;
    }
  }
  flush();
  return out;
}

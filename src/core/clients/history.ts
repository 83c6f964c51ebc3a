// A monitoring client's online history, read from its stored intervals (core/clients/store.ts):
// when it was online, the silences longer than the heartbeat timeout, and how long it was online
// in a range (today, for the client page). Pure: the times come in, the figures go out.
import type { OnlineInterval } from "./store.ts";

/** Online from the first beat until the timeout after the last one (cut to the range). */
export interface HistorySpan {
  from: number;
  to: number;
  beats: number;
}

/** A silence longer than the timeout: the last beat before it and the first after it (or the range's end: `ongoing`). */
export interface HistoryGap {
  from: number;
  to: number;
  seconds: number;
  ongoing: boolean;
}

export interface DeviceHistory {
  from: number;
  to: number;
  timeout: number;
  spans: HistorySpan[];
  /** Oldest first. */
  gaps: HistoryGap[];
  onlineSeconds: number;
  beats: number;
}

/**
 * Intervals were cut with the timeout in force when their beats came; a timeout raised since
 * then joins the ones now closer than it, so a silence is marked only when it is over the current one.
 */
function merged(intervals: readonly OnlineInterval[], timeout: number): OnlineInterval[] {
  const out: OnlineInterval[] = [];
  for (const i of [...intervals].sort((a, b) => a.startAt - b.startAt)) {
    const last = out.at(-1);
    if (last && i.startAt - last.endAt <= timeout) {
      last.endAt = Math.max(last.endAt, i.endAt);
      last.beats += i.beats;
    } else out.push({ ...i });
  }
  return out;
}

/** The history over [from, to): pass the intervals that ended at or after `from - timeout`. */
export function deviceHistory(intervals: readonly OnlineInterval[], o: { from: number; to: number; timeout: number }): DeviceHistory {
  const all = merged(intervals, o.timeout);
  const spans: HistorySpan[] = [];
  const gaps: HistoryGap[] = [];
  let onlineSeconds = 0;
  let beats = 0;
  all.forEach((i, n) => {
    const from = Math.max(i.startAt, o.from);
    const to = Math.min(i.endAt + o.timeout, o.to);
    if (to > from) {
      spans.push({ from, to, beats: i.beats });
      onlineSeconds += to - from;
      beats += i.beats;
    }
    const next = all[n + 1];
    const silentUntil = next ? next.startAt : o.to;
    // A silence is marked when it is longer than the timeout and reaches into the range.
    if (silentUntil - i.endAt > o.timeout && silentUntil > o.from && i.endAt < o.to) {
      gaps.push({ from: i.endAt, to: silentUntil, seconds: silentUntil - i.endAt, ongoing: !next });
    }
  });
  return { from: o.from, to: o.to, timeout: o.timeout, spans, gaps, onlineSeconds, beats };
}

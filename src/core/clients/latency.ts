// Report latency: how long after the payment a client's report arrived, read from the payment
// time the report itself carries: an amount report's `pay_time`, a forwarded notification's
// `receive_time`, a V免签 push's `t` (the phone's clock, ms). Phones write their local wall time
// without a zone; it is read in the operator's `timezone` setting (the zone the shop runs in).
// A report carrying none (or an unreadable one) has no latency; a negative one means the phone's
// clock runs ahead of the server's.
import type { StoredReport } from "../store.ts";

const WALL = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/;

function offsetSeconds(utcSeconds: number, zone: string): number {
  const name = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" }).formatToParts(new Date(utcSeconds * 1000)).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  return m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60) : 0;
}

/** A time as phones write it: unix seconds or milliseconds, or a local wall time in `zone`; null otherwise. */
export function readClientTime(v: unknown, zone: string): number | null {
  const s = typeof v === "number" ? String(Math.trunc(v)) : typeof v === "string" ? v.trim() : "";
  if (/^\d{10}$/.test(s)) return Number(s);
  if (/^\d{13}$/.test(s)) return Math.floor(Number(s) / 1000);
  const m = WALL.exec(s);
  if (!m) return null;
  const [y, mo, d, h, mi, se] = m.slice(1).map((x) => Number(x ?? 0)) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 59) return null;
  const naive = Date.UTC(y, mo - 1, d, h, mi, se) / 1000;
  // The offset at the guess, then at the result (they differ only across a clock change).
  const first = naive - offsetSeconds(naive, zone);
  return naive - offsetSeconds(first, zone);
}

function parsed(raw: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(raw) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The payment time a report carries (unix seconds), or null. */
export function carriedPayTime(r: Pick<StoredReport, "kind" | "raw">, zone: string): number | null {
  const p = parsed(r.raw);
  if (!p) return null;
  if (r.kind === "amount") return readClientTime(p.pay_time, zone);
  if (r.kind === "vmq-push") return readClientTime(p.t, zone);
  if (r.kind === "message" && typeof p.content === "string") return readClientTime(parsed(p.content)?.receive_time, zone);
  return null;
}

export interface LatencyRow {
  reportId: number;
  createdAt: number;
  paidAt: number;
  seconds: number;
}

export interface Latency {
  rows: LatencyRow[];
  /** Of the rows (null when none carried a time). */
  median: number | null;
  max: number | null;
}

/** Latency of each report that carries a payment time (newest first, as given). */
export function reportLatency(reports: readonly StoredReport[], zone: string): Latency {
  const rows: LatencyRow[] = [];
  for (const r of reports) {
    const paidAt = carriedPayTime(r, zone);
    if (paidAt !== null) rows.push({ reportId: r.id, createdAt: r.createdAt, paidAt, seconds: r.createdAt - paidAt });
  }
  const sorted = rows.map((r) => r.seconds).sort((a, b) => a - b);
  const median = sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)]! : null;
  return { rows, median, max: sorted.length ? sorted.at(-1)! : null };
}

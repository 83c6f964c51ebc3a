// Days and hours as the operator reads them: in the `timezone` setting (core/time.ts), where a day
// may have 23 or 25 hours and an offset may be +05:45. The store counts ranges; the edges of the
// local days and hours are computed here, so the SQL needs no time-zone support.
import { formatLocal } from "../time.ts";

/** Every time zone's offset is a whole number of quarter hours. */
const QUARTER = 900;

/** "2026-11-23 14": the local date and hour of an instant (unix seconds). */
function wall(seconds: number, zone: string): { date: string; hour: string; sinceMidnight: number } {
  const s = formatLocal(seconds * 1000, zone); // "2026-11-23 14:05:09 +08:00"
  const [h, m, sec] = s.slice(11, 19).split(":").map(Number) as [number, number, number];
  return { date: s.slice(0, 10), hour: s.slice(11, 13), sinceMidnight: h * 3600 + m * 60 + sec };
}

/** The local date ("2026-11-23") of an instant. */
export const localDate = (seconds: number, zone: string): string => wall(seconds, zone).date;

/** The local hour ("2026-11-23 14:00") of an instant. */
export function localHour(seconds: number, zone: string): string {
  const w = wall(seconds, zone);
  return `${w.date} ${w.hour}:00`;
}

/** The first second of the local day holding `seconds` (unix seconds). */
export function startOfLocalDay(seconds: number, zone: string): number {
  const w = wall(seconds, zone);
  let t = seconds - w.sinceMidnight;
  // Across a daylight-saving change the wall clock moved meanwhile: correct once more, and where
  // the day begins at 01:00 (no midnight that day) walk forward to its first quarter hour.
  const again = wall(t, zone);
  if (again.date === w.date) t -= again.sinceMidnight;
  else t += 86400 - again.sinceMidnight;
  while (localDate(t - QUARTER, zone) === w.date) t -= QUARTER;
  while (localDate(t, zone) !== w.date) t += QUARTER;
  return t;
}

/** Starts of the `days` local days ending with today's, oldest first. */
export function lastDays(now: number, days: number, zone: string): number[] {
  const starts = [startOfLocalDay(now, zone)];
  while (starts.length < days) starts.unshift(startOfLocalDay(starts[0]! - 1, zone));
  return starts;
}

/** A day or an hour: [from, to) with its label. */
export interface Bucket {
  from: number;
  to: number;
  label: string;
}

/** The local days (or hours) that overlap [from, to), each cut to the range, oldest first. */
export function buckets(from: number, to: number, unit: "day" | "hour", zone: string): Bucket[] {
  const out: Bucket[] = [];
  let start = unit === "day" ? startOfLocalDay(from, zone) : startOfLocalDay(from, zone) + Math.floor((from - startOfLocalDay(from, zone)) / 3600) * 3600;
  while (start < to) {
    // An hour is 3600 s in every zone (a clock change repeats or skips one); a day is found anew.
    const end = unit === "day" ? startOfLocalDay(start + 26 * 3600, zone) : start + 3600;
    out.push({ from: Math.max(start, from), to: Math.min(end, to), label: unit === "day" ? localDate(start, zone) : localHour(start, zone) });
    start = end;
  }
  return out;
}

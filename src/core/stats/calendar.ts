// Days and hours as the operator reads them: in the `timezone` setting (core/time.ts), where a day
// may have 23 or 25 hours and an offset may be +05:45. SQL only ever groups by the quarter hour
// (floor(seconds / 900)): every time zone's offset is a whole number of quarter hours, so each
// quarter lies inside one local hour and one local day, and the core labels it here.
import { formatLocal } from "../time.ts";

export const QUARTER = 900;

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

/** Every quarter hour of [from, to), each with the label of its local day or hour, in order. */
export function quarterLabels(from: number, to: number, unit: "day" | "hour", zone: string): Map<number, string> {
  const out = new Map<number, string>();
  for (let q = Math.floor(from / QUARTER); q * QUARTER < to; q++) {
    out.set(q, unit === "day" ? localDate(q * QUARTER, zone) : localHour(q * QUARTER, zone));
  }
  return out;
}

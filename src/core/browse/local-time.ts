// Dates and times the operator types (the console's date filters, the CLI's --from/--to) are read
// in the `timezone` setting, like every time xpay shows: "2026-11-23" is that local day, which may
// have 23 or 25 hours. Strict: anything else is refused, never guessed.
import { localDate, startOfLocalDay } from "../stats/calendar.ts";
import { formatLocal } from "../time.ts";

const INPUT = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}))?$/;

/** The first second (unix) of the local day `date` ("2026-11-23") in `zone`; null for no such date. */
export function localDayStart(date: string, zone: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const noon = Date.UTC(y, mo - 1, d, 12) / 1000;
  // Date.UTC rolls 2026-02-30 over to March: the round trip says whether the date exists.
  if (y < 2000 || y > 2200 || new Date(noon * 1000).toISOString().slice(0, 10) !== date) return null;
  // UTC noon is on that local date for offsets -12..+11; UTC midnight for +12..+14.
  for (const t of [noon, noon - 12 * 3600]) if (localDate(t, zone) === date) return startOfLocalDay(t, zone);
  return null;
}

/**
 * "2026-11-23" or "2026-11-23 14:30" (also with a T) as unix seconds. A bare date is the start of
 * that day, or with `endOfDay` the start of the next one (an inclusive "to" day as an exclusive bound).
 */
export function parseLocalTime(text: string, zone: string, o: { endOfDay?: boolean } = {}): number | null {
  const m = INPUT.exec(text.trim());
  if (!m) return null;
  const date = `${m[1]}-${m[2]}-${m[3]}`;
  const start = localDayStart(date, zone);
  if (start === null) return null;
  if (m[4] === undefined) return o.endOfDay ? startOfLocalDay(start + 26 * 3600, zone) : start;
  const [h, min] = [Number(m[4]), Number(m[5])];
  if (h > 23 || min > 59) return null;
  // Seconds since the day began, corrected once where a clock change moved the wall clock meanwhile.
  const want = h * 3600 + min * 60;
  let t = start + want;
  const shown = wallSeconds(t, zone);
  if (localDate(t, zone) === date && shown !== want) t += want - shown;
  return t;
}

function wallSeconds(t: number, zone: string): number {
  const [h, m, sec] = formatLocal(t * 1000, zone).slice(11, 19).split(":").map(Number) as [number, number, number];
  return h * 3600 + m * 60 + sec;
}

// The time at the head of every log line, without Intl per line: formatToParts cost a tenth of the
// server's CPU under load (one call per access-log line). A line's date, time and offset change at
// most once a second, so they are formatted once per second (and zone) and reused; only the
// milliseconds of a JSON line are written per line.
import { formatIsoLocal, formatLocalClock } from "../core/time.ts";

export class LogClock {
  private second = Number.NaN;
  private zone = "";
  /** "2026-11-23T20:15:00." and "+08:00" of the cached second. */
  private isoHead = "";
  private isoOffset = "";
  /** "20:15:00 +08:00" of the cached second. */
  private clock = "";

  private at(ms: number, zone: string): void {
    const second = Math.floor(ms / 1000);
    if (second === this.second && zone === this.zone) return;
    const iso = formatIsoLocal(second * 1000, zone); // "2026-11-23T20:15:00.000+08:00"
    this.isoHead = iso.slice(0, 20);
    this.isoOffset = iso.slice(23);
    this.clock = formatLocalClock(second * 1000, zone);
    this.second = second;
    this.zone = zone;
  }

  /** formatIsoLocal(ms, zone), from the cached second. */
  iso(ms: number, zone: string): string {
    this.at(ms, zone);
    const milli = ms - this.second * 1000;
    return `${this.isoHead}${milli < 10 ? "00" : milli < 100 ? "0" : ""}${milli}${this.isoOffset}`;
  }

  /** formatLocalClock(ms, zone), from the cached second. */
  clockOf(ms: number, zone: string): string {
    this.at(ms, zone);
    return this.clock;
  }
}

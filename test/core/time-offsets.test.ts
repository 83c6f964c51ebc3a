// formatLocal and its siblings read the zone's offset once per quarter hour and do the arithmetic
// themselves; Intl's formatToParts, which they used for every time, is the reference. Random
// instants and every daylight-saving transition of a few zones (New York, Lord Howe's half-hour
// shift, Kathmandu's +05:45, Chatham's +12:45, Shanghai and UTC) must read the same both ways.
import { expect, test } from "bun:test";
import { formatIsoLocal, formatLocal, formatLocalClock } from "../../src/core/time.ts";

const ZONES = ["Asia/Shanghai", "UTC", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "Pacific/Chatham", "Europe/London", "America/St_Johns"];

const formats = new Map<string, Intl.DateTimeFormat>();

function reference(ms: number, zone: string) {
  const p: Record<string, string> = {};
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone, hourCycle: "h23", timeZoneName: "longOffset",
      year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit",
    });
    formats.set(zone, f);
  }
  for (const x of f.formatToParts(new Date(ms))) p[x.type] = x.value;
  const offset = (p.timeZoneName ?? "GMT").replace(/^GMT/, "") || "+00:00";
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second} ${offset}`;
}

test("random instants from 1990 to 2060 read as Intl reads them", () => {
  for (const zone of ZONES) {
    for (let i = 0; i < 2000; i++) {
      const ms = Date.UTC(1990, 0, 1) + Math.floor(Math.random() * 70 * 365.25 * 86400_000);
      expect(formatLocal(ms, zone)).toBe(reference(ms, zone));
    }
  }
});

test("around each transition of 2026 and 2027: every 5 s of the hours around it, and each second of the minute it happens in", () => {
  for (const zone of ZONES) {
    let checked = 0;
    for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2028, 0, 1); t += 3600_000) {
      if (reference(t, zone).slice(-6) === reference(t + 3600_000, zone).slice(-6)) continue;
      for (let s = t - 1800_000; s <= t + 5400_000; s += 5000) {
        expect(formatLocal(s, zone)).toBe(reference(s, zone));
        checked++;
      }
      for (let m = t; m < t + 3600_000; m += 60_000) {
        if (reference(m, zone).slice(-6) === reference(m + 60_000, zone).slice(-6)) continue;
        for (let s = m - 2000; s <= m + 62_000; s += 1000) expect(formatLocal(s, zone)).toBe(reference(s, zone));
      }
    }
    if (!["Asia/Shanghai", "UTC", "Asia/Kathmandu"].includes(zone)) expect(checked).toBeGreaterThan(0);
  }
});

test("the clock and the ISO form agree with formatLocal, milliseconds included", () => {
  const ms = Date.UTC(2026, 10, 23, 12, 15, 0, 123);
  expect(formatLocal(ms, "Asia/Shanghai")).toBe("2026-11-23 20:15:00 +08:00");
  expect(formatLocalClock(ms, "Asia/Shanghai")).toBe("20:15:00 +08:00");
  expect(formatIsoLocal(ms, "Asia/Shanghai")).toBe("2026-11-23T20:15:00.123+08:00");
  expect(formatIsoLocal(ms, "America/St_Johns")).toBe(reference(ms, "America/St_Johns").replace(" ", "T").replace(/ ([+-])/, ".123$1"));
});

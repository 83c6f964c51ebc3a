// How the console writes numbers, amounts and durations; every page prints through these, so
// "¥269,797.17" and "484,452 笔" read the same everywhere. Grouping is a comma in both languages
// (zh-CN writes it too). The formatters run once per table cell: the Intl.NumberFormat is built
// once here, never per call, and amounts are cut into yuan and cents by integer arithmetic (a
// stored amount is integer cents; no float ever touches it).
import type { Translate } from "./i18n/index.ts";

const GROUP = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0, useGrouping: true });

/** 484452 -> "484,452". Integers (counts); a fraction is rounded. */
export function grouped(n: number): string {
  return n < 1000 && n > -1000 && Number.isInteger(n) ? String(n) : GROUP.format(n);
}

/** Cents as grouped yuan without the sign: 26979717 -> "269,797.17". */
export function yuanText(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  const rest = abs % 100;
  return `${sign}${grouped((abs - rest) / 100)}.${rest < 10 ? "0" : ""}${rest}`;
}

/** "¥269,797.17"; an em dash for no amount. */
export function money(cents: number | null | undefined): string {
  return cents === null || cents === undefined ? "—" : `¥${yuanText(cents)}`;
}

/** Counts from this size on read as 万 in the Chinese UI (dashboard cards, chart axes): six digits
 *  is where a reader starts counting commas; below it the full number is short enough. */
export const WAN_FROM = 100_000;

/** A large count for a card: "48.4 万" in Chinese from WAN_FROM (亿 from 10^8), the grouped
 *  number otherwise and always in English (t("fmt.wan") is empty there). */
export function bigCount(n: number, t: Translate): string {
  const wan = t("fmt.wan");
  if (!wan || Math.abs(n) < WAN_FROM) return grouped(n);
  if (Math.abs(n) >= 100_000_000) return `${trim1(n / 100_000_000)} ${t("fmt.yi")}`;
  return `${trim1(n / 10_000)} ${wan}`;
}

/** One decimal, none when it is .0: 48.4, 12. */
const trim1 = (v: number): string => {
  const s = (Math.round(v * 10) / 10).toFixed(1);
  return s.endsWith(".0") ? s.slice(0, -2) : s;
};

const UNITS: [number, "fmt.d" | "fmt.h" | "fmt.min" | "fmt.s"][] = [
  [86400, "fmt.d"],
  [3600, "fmt.h"],
  [60, "fmt.min"],
  [1, "fmt.s"],
];

/** A duration in the page's units, its two largest parts: "3 天 4 小时", "12 分钟", "45 秒"
 *  (English: "3 d 4 h", "12 min"). Negative durations get a minus sign. */
export function duration(seconds: number, t: Translate): string {
  const sign = seconds < 0 ? "-" : "";
  let rest = Math.floor(Math.abs(seconds));
  const parts: string[] = [];
  for (const [size, key] of UNITS) {
    if (parts.length === 2) break;
    const q = Math.floor(rest / size);
    rest -= q * size;
    if (q > 0) parts.push(t(key, { n: q }));
    else if (parts.length === 1) break; // "3 天" rather than "3 天 0 小时"
  }
  return sign + (parts.length ? parts.join(" ") : t("fmt.s", { n: 0 }));
}

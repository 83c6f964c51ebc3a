import { randomInt } from "node:crypto";

/** 20 digits: yyyyMMddHHmmss (UTC+8, the operators' clock) + 6 random digits. */
export function newTradeNo(nowMs: number): string {
  const d = new Date(nowMs + 8 * 3600_000);
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  const stamp =
    p(d.getUTCFullYear(), 4) + p(d.getUTCMonth() + 1) + p(d.getUTCDate()) + p(d.getUTCHours()) + p(d.getUTCMinutes()) + p(d.getUTCSeconds());
  return stamp + p(randomInt(0, 1_000_000), 6);
}

/** Formats unix seconds as "yyyy-MM-dd HH:mm:ss" in China time, as epay responses do. */
export function formatDateTime(seconds: number): string {
  const d = new Date(seconds * 1000 + 8 * 3600_000);
  return d.toISOString().slice(0, 19).replace("T", " ");
}

/** Start of the current day (China time) in unix seconds: daily limits reset at local midnight. */
export function startOfDay(seconds: number): number {
  const offset = 8 * 3600;
  return Math.floor((seconds + offset) / 86400) * 86400 - offset;
}

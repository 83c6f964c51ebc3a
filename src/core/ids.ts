import { randomInt } from "node:crypto";

/**
 * 20 digits: yyyyMMdd (China time, the operators' day) + 12 random digits (PostgreSQL's; SQLite
 * makes its 12 digits from the order's place, store/sqlite/order-keys.ts). The number is the only
 * key of the public cashier API (order_id guards qrcode and pay-type), so it must not be walkable:
 * yyyyMMddHHmmss + 6 random digits left 10^6 (20 bits) per second, and whoever knew roughly when
 * an order was made could try them all. 10^12 (40 bits) per day now, with nothing to learn from
 * the time; the date stays in front, so a number still reads and sorts by day.
 */
export function newTradeNo(nowMs: number): string {
  return tradeDay(nowMs) + String(randomInt(0, 1_000_000_000_000)).padStart(12, "0");
}

/** The day an order number starts with: yyyyMMdd in China time. */
export function tradeDay(nowMs: number): string {
  const d = new Date(nowMs + 8 * 3600_000);
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  return p(d.getUTCFullYear(), 4) + p(d.getUTCMonth() + 1) + p(d.getUTCDate());
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

// The key an order is stored under on SQLite (docs/decisions/stores.md, "An order number without a
// random index"). A public order number is 20 digits: the day (yyyyMMdd, China time) and 12 digits
// that must not be guessable. Stored as it is, it is the random key of `orders`' primary index, and
// each create wrote a page of its own there (1.1 of the 2.6 log pages a create wrote, about a
// sixth of its CPU). So a new order's 12 digits are FF1(seq), the order's place in the sequence
// encrypted under the database's own key, and every `trade_no` column stores
//
//   day (8) + seq (12 digits) + FF1(seq) (12)   = 32 characters
//
// which grows with every order, so the index only grows at its end. The public number is the
// first 8 and the last 12 characters: no secret is needed to show a stored key, and a public
// number is turned back into its key by decrypting its last 12 digits. Orders stored before
// (20-digit keys, their public numbers) keep them: their days are at most `legacy_through`, and
// only a number of such a day is looked for in the index as it is.
import type { Database } from "bun:sqlite";
import { randomBytes } from "node:crypto";
import { type DigitCipher, ff1Digits } from "../../core/ff1.ts";
import { publicTradeNo } from "../trade-no.ts";

export { publicTradeNo, publicTradeNoOrNull } from "../trade-no.ts";

const PUBLIC = /^[0-9]{20}$/;

interface OrderKeys {
  cipher: DigitCipher;
  /** The last day (yyyyMMdd) that may hold an order stored under its public number. */
  legacyThrough: string;
  /** FF1 of the places from `from` on, encrypted together (placeDigits). */
  ahead: { from: number; digits: string[] };
  /**
   * Stored keys of public numbers lately read or turned back (storedTradeNo, knownStored), each
   * of a day after `legacyThrough`, so equal to what a decryption gives. A paid report's order is
   * read as a row and named again by its public number twice (its payment, its report row): 2.6 %
   * of the gateway's CPU under reports went to those two decryptions (docs/benchmarks.md).
   */
  known: Map<string, string>;
}

/** How many stored keys `known` holds before it starts again. */
const KNOWN = 4096;

/**
 * How many places are encrypted in one pass. Places are taken one after another, so the next
 * creates find theirs made: 0.7 µs a number against 3.5-4 µs one by one (ff1.ts).
 */
const AHEAD = 64;

const byDb = new WeakMap<Database, OrderKeys | null>();

/**
 * Creates the database's order-number key once (a read-write open, after the migrations): 16
 * random bytes, and the last day an order was stored under its public number (the newest key
 * now, since every key so far is one).
 */
export function ensureOrderKeys(db: Database): void {
  if (db.query("SELECT 1 FROM order_number_key WHERE id = 1").get()) return;
  const last = db.query("SELECT MAX(trade_no) AS t FROM orders").get() as { t: string | null };
  db.query("INSERT OR IGNORE INTO order_number_key (id, key, legacy_through) VALUES (1, $key, $through)").run({
    key: randomBytes(16),
    through: last.t ? last.t.slice(0, 8) : "00000000",
  });
  byDb.delete(db);
}

/** Reads the key row again at its next use (after a copy moved `legacy_through`). */
export function forgetOrderKeys(db: Database): void {
  byDb.delete(db);
}

function keysOf(db: Database): OrderKeys | null {
  let k = byDb.get(db);
  if (k === undefined) {
    // A file below 041 (read without migrating) has no table and no stored key of the new form.
    const table = db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'order_number_key'").get();
    const row = table ? (db.query("SELECT key, legacy_through FROM order_number_key WHERE id = 1").get() as { key: Uint8Array; legacy_through: string } | null) : null;
    k = row ? { cipher: ff1Digits(new Uint8Array(row.key)), legacyThrough: row.legacy_through, ahead: { from: 0, digits: [] }, known: new Map() } : null;
    byDb.set(db, k);
  }
  return k;
}

/**
 * The key a public number is stored under: its 32-character key, or the number itself for an
 * order stored before (looked for in the index only when its day may hold one). Anything that is
 * not a public number comes back as it is (it matches nothing).
 */
export function storedTradeNo(db: Database, tradeNo: string): string {
  const k = keysOf(db);
  if (!k || !PUBLIC.test(tradeNo)) return tradeNo;
  const seen = k.known.get(tradeNo);
  if (seen !== undefined) return seen;
  const day = tradeNo.slice(0, 8);
  const digits = tradeNo.slice(8);
  const stored = day + k.cipher.decrypt(digits) + digits;
  if (day > k.legacyThrough) return remember(k, tradeNo, stored);
  return db.query("SELECT 1 FROM orders WHERE trade_no = $t").get({ t: tradeNo }) ? tradeNo : stored;
}

function remember(k: OrderKeys, tradeNo: string, stored: string): string {
  if (k.known.size >= KNOWN) k.known.clear();
  k.known.set(tradeNo, stored);
  return stored;
}

/**
 * A stored key just read from a row, kept so that its public number turns back into it without a
 * decryption. Only a 32-character key of a day after `legacyThrough`: storedTradeNo gives exactly
 * that key for its public number (an older day's number may be an order stored under it as it is).
 */
export function knownStored(db: Database, stored: string): void {
  const k = keysOf(db);
  if (!k || stored.length !== 32 || stored.slice(0, 8) <= k.legacyThrough) return;
  remember(k, publicTradeNo(stored), stored);
}

/** storedTradeNo for a value that may be NULL. */
export function storedTradeNoOrNull(db: Database, tradeNo: string | null | undefined): string | null {
  return tradeNo === null || tradeNo === undefined ? null : storedTradeNo(db, tradeNo);
}

/**
 * The stored key of a new order of `day` at place `seq` in the sequence, or null when its public
 * number is already an older order's (possible only on a day that may hold orders stored under
 * their public numbers: the caller takes the next place).
 */
export function newStoredTradeNo(db: Database, day: string, seq: number): string | null {
  const k = keysOf(db);
  if (!k) throw new Error("the database has no order-number key (ensureOrderKeys)");
  const place = String(seq).padStart(12, "0");
  const digits = placeDigits(k, seq, place);
  if (day <= k.legacyThrough && db.query("SELECT 1 FROM orders WHERE trade_no = $t").get({ t: day + digits })) return null;
  return day + place + digits;
}

/** FF1 of the place `seq` (written `place`): from the places encrypted ahead, or a new pass from it. */
function placeDigits(k: OrderKeys, seq: number, place: string): string {
  const made = k.ahead.digits[seq - k.ahead.from];
  if (made !== undefined) return made;
  // One pass takes one length of place: it stops where the places gain a digit (10^12 on).
  const end = Math.min(seq + AHEAD, 10 ** place.length);
  const places = [place];
  for (let s = seq + 1; s < end; s++) places.push(String(s).padStart(place.length, "0"));
  k.ahead = { from: seq, digits: k.cipher.encryptMany(places) };
  return k.ahead.digits[0]!;
}

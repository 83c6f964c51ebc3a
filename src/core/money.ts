// Money is integer cents inside xpay; yuan strings exist only on the wire.
export const MAX_CENTS = 9_999_999_999; // 99999999.99 yuan

const YUAN = /^(\d{1,8})(?:\.(\d{1,2}))?$/;

/** Strict yuan parsing: "1", "1.5", "1.50"; never floating point. Returns null when invalid. */
export function parseYuan(input: unknown): number | null {
  if (typeof input === "number") input = String(input);
  if (typeof input !== "string") return null;
  const m = YUAN.exec(input);
  if (!m) return null;
  const cents = yuanDigitsToCents(m[1]!, m[2]);
  return cents > 0 && cents <= MAX_CENTS ? cents : null;
}

/** "12" and "5" (the digits around the point) as cents: integer arithmetic, never a float. */
function yuanDigitsToCents(whole: string, fraction = ""): number {
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

export function formatYuan(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** Parses a non-negative integer number of cents written as digits (CLI options, report amounts). */
export function parseCents(input: unknown): number | null {
  const s = typeof input === "number" ? String(input) : input;
  if (typeof s !== "string" || !/^\d{1,11}$/.test(s)) return null;
  const n = Number(s);
  return n <= MAX_CENTS ? n : null;
}

/** An amount as a person reads it: the unit, then yuan with two decimals ("¥500.00"). */
export function showYuan(cents: number): string {
  return `¥${formatYuan(cents)}`;
}

export interface TypedYuanOptions {
  /** 0 is a value here (a bound of 0 = no limit, an offset of 0); otherwise an amount is > 0. */
  zero?: boolean;
  /** The largest value in cents (MAX_CENTS when not given). */
  max?: number;
  /** Two ways to write a good value, for the message ("500", "500.00"). */
  example?: readonly [string, string];
}

export type TypedYuan = { ok: true; cents: number } | { ok: false; problem: string };

/**
 * An amount an operator typed (a CLI flag, a setting, a console field): yuan, strictly
 * `^\d+(\.\d{1,2})?$`, never cents and never a float. The problem names the value and shows the
 * yuan way to write it, so `--max 5.001` or a cents habit (`--max 50000` reads as 50000 yuan,
 * which the printed ¥50000.00 makes plain) is caught where it is typed. `label` (the flag or the
 * setting, or "") starts the line.
 */
export function readTypedYuan(label: string, input: string, o: TypedYuanOptions = {}): TypedYuan {
  const [a, b] = o.example ?? ["500", "500.00"];
  const max = o.max ?? MAX_CENTS;
  const m = /^(\d{1,15})(?:\.(\d{1,2}))?$/.exec(input);
  const head = `${label === "" ? "" : `${label}: `}${JSON.stringify(input.length > 40 ? `${input.slice(0, 40)}...` : input)}`;
  if (!m) return { ok: false, problem: `${head} is not an amount in yuan; write it like ${a} or ${b}` };
  const cents = yuanDigitsToCents(m[1]!, m[2]);
  if (cents === 0 && !o.zero) return { ok: false, problem: `${head} must be more than 0 yuan; write it like ${a} or ${b}` };
  if (cents > max) return { ok: false, problem: `${head} is more than ${showYuan(max)}, the most it can be` };
  return { ok: true, cents };
}

// Money is integer cents inside xpay; yuan strings exist only on the wire.
export const MAX_CENTS = 9_999_999_999; // 99999999.99 yuan

const YUAN = /^(\d{1,8})(?:\.(\d{1,2}))?$/;

/** Strict yuan parsing: "1", "1.5", "1.50"; never floating point. Returns null when invalid. */
export function parseYuan(input: unknown): number | null {
  if (typeof input === "number") input = String(input);
  if (typeof input !== "string") return null;
  const m = YUAN.exec(input);
  if (!m) return null;
  const cents = Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
  return cents > 0 && cents <= MAX_CENTS ? cents : null;
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

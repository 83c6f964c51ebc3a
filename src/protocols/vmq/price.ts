// The monitor app sends the received amount as a Java double printed by Double.toString: "10.0",
// "0.1", "9.99", "1234.5", and from 10^7 up (or below 10^-3) in exponent form, "1.0E7". The text
// is read here as decimal digits, never through a float, and must name a whole number of cents
// within xpay's money range. Anything else (more than two decimals, a sign, NaN, Infinity, hex,
// spaces, leading zeros, an absurd exponent) is refused: the signed text must mean one amount.
import { MAX_CENTS } from "../../core/money.ts";

const PLAIN = /^(0|[1-9]\d{0,9})(?:\.(\d{1,2}))?$/;
// Double.toString's exponent form: one non-zero digit, a fraction, E, a signed exponent.
const EXPONENT = /^([1-9])\.(\d{1,17})E(-?\d{1,2})$/;

function toCents(intPart: string, fracPart: string): number | null {
  if (fracPart.length > 2) return null;
  const digits = intPart.replace(/^0+(?=\d)/, "");
  if (digits.length > 8) return null;
  const cents = Number(digits) * 100 + Number(fracPart.padEnd(2, "0"));
  return cents > 0 && cents <= MAX_CENTS ? cents : null;
}

/** Cents for the app's `price` text, or null when it is not an exact amount xpay accepts. */
export function parseAppPrice(text: string): number | null {
  const plain = PLAIN.exec(text);
  if (plain) return toCents(plain[1]!, plain[2] ?? "");
  const exp = EXPONENT.exec(text);
  if (!exp) return null;
  // d.fffE±n: the point moves n places right of the first digit.
  const digits = exp[1]! + exp[2]!;
  const point = 1 + Number(exp[3]);
  if (point > 10 || point < -2) return null; // at least 10^10 or below 10^-3 yuan: out of range either way
  let intPart: string;
  let fracPart: string;
  if (point <= 0) {
    intPart = "0";
    fracPart = "0".repeat(-point) + digits;
  } else if (point >= digits.length) {
    intPart = digits + "0".repeat(point - digits.length);
    fracPart = "";
  } else {
    intPart = digits.slice(0, point);
    fracPart = digits.slice(point);
  }
  // Java writes "1.0E7": the one zero of an exact mantissa is not a decimal place.
  return toCents(intPart, fracPart.replace(/0+$/, ""));
}

// The replay window for signed requests that carry a `timestamp`.
export function checkTimestamp(value: string | undefined, now: number, windowSeconds: number, o: { allowMillis?: boolean } = {}): string | null {
  if (value === undefined || value === "") return "missing parameter: timestamp";
  let seconds: number;
  if (/^\d{10}$/.test(value)) seconds = Number(value);
  else if (o.allowMillis && /^\d{13}$/.test(value)) seconds = Math.floor(Number(value) / 1000);
  else return o.allowMillis ? "timestamp must be Unix seconds (10 digits) or milliseconds (13 digits)" : "timestamp must be Unix seconds (10 digits)";
  if (Math.abs(now - seconds) > windowSeconds) return `timestamp is outside the allowed window of ${windowSeconds} seconds; check the client clock`;
  return null;
}

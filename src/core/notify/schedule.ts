// The retry schedule of DESIGN.md: first attempt right after the commit, then these delays
// (about 24 h in all), then the notification is marked failed and only `notify replay` revives it.
export const RETRY_DELAYS_S = [15, 15, 30, 180, 600, 1200, 1800, 1800, 1800, 3600, 10800, 10800, 10800, 21600, 21600] as const;

export const MAX_ATTEMPTS = RETRY_DELAYS_S.length + 1;

/**
 * When to try again after `attemptsMade` failed attempts (this one included); null = give up.
 * `delays` is injectable: `xpay dev` passes a compressed schedule (core/dev/mode.ts).
 */
export function nextRetryAt(attemptsMade: number, nowMs: number, delays: readonly number[] = RETRY_DELAYS_S): number | null {
  const delay = delays[attemptsMade - 1];
  return delay === undefined ? null : nowMs + delay * 1000;
}

/** Stored response bodies keep the first 512 bytes, cut on a character boundary. */
export function firstBytes(body: Uint8Array, max = 512): string {
  let end = Math.min(body.length, max);
  // Back off continuation bytes (10xxxxxx) so a multi-byte character is never split.
  if (end < body.length) while (end > 0 && (body[end]! & 0xc0) === 0x80) end--;
  return new TextDecoder("utf-8", { fatal: false }).decode(body.subarray(0, end));
}

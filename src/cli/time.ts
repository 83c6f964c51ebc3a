// Times in CLI output: in the `timezone` setting of the database the command opened (read once
// when it opens it), each with its UTC offset. One command is one process, so one zone per run.
import { DEFAULT_TIME_ZONE, formatLocal, timeZoneProblem } from "../core/time.ts";

let zone = DEFAULT_TIME_ZONE;

/** Takes the stored setting; an unset or unusable value keeps the default rather than failing a read. */
export function useTimeZone(value: string | undefined): void {
  zone = value !== undefined && timeZoneProblem(value) === null ? value : DEFAULT_TIME_ZONE;
}

export const shownTimeZone = (): string => zone;

/**
 * The zone of the dates a command was given, once its database is open: SQLite's setting is read
 * as it opens, PostgreSQL's arrives with the store's `ready` (open-store.ts applies it first).
 */
export async function commandZone(store: object): Promise<string> {
  await (store as { ready?: Promise<unknown> }).ready?.catch(() => {});
  return zone;
}

/** Unix seconds as "2026-11-23 20:15:00 +08:00"; "" for no time. */
export function showTime(seconds: number | null | undefined): string {
  return seconds === null || seconds === undefined ? "" : formatLocal(seconds * 1000, zone);
}

/** Milliseconds since the epoch, same form. */
export function showTimeMs(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? "" : formatLocal(ms, zone);
}

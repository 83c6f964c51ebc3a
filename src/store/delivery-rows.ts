// Rows of the per-merchant delivery health (migration 023) as the core reads them, shared by the
// SQLite and PostgreSQL adapters (a neutral home: neither adapter imports the other's).
import type { AttemptOutcome, FailureGroup, MerchantDelivery } from "../core/store.ts";

type Row = Record<string, number | string | null>;

/** The error a failed attempt is known by, as the dashboard words it. */
export function attemptError(o: AttemptOutcome): string {
  return o.attempt.error || (o.attempt.httpStatus === null ? "" : `HTTP ${o.attempt.httpStatus}`);
}

export function toDelivery(r: Row): MerchantDelivery {
  const ms = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    pid: Number(r.pid), lastSuccessAt: ms(r.last_success_at), failingSince: ms(r.failing_since), lastFailureAt: ms(r.last_failure_at),
    lastError: String(r.last_error ?? ""), delivered: Number(r.delivered ?? 0),
    pending: Number(r.pending ?? 0), failing: Number(r.failing ?? 0), givenUp: Number(r.given_up ?? 0),
  };
}

export function toGroup(r: Record<string, unknown>): FailureGroup {
  return { pid: Number(r.pid), error: String(r.error ?? ""), count: Number(r.n), givenUp: Number(r.given_up ?? 0), firstAt: Number(r.first_at), lastAt: Number(r.last_at) };
}

// Fair shares of the notification worker. An attempt waits up to a minute for a merchant that
// never answers (the spec's timeout), so without a cap 80 hanging orders of one merchant held every
// slot and another merchant's notification waited 299 s. A row over its merchant's or its target's
// cap is not claimed: it stays due, unleased and unattempted, and goes out when a slot of its own
// merchant and target frees, while other merchants' rows pass it.

/** Attempts in flight at once in one worker (they only wait on the network). */
export const NOTIFY_CONCURRENCY = 128;
/**
 * Defaults of the settings notify_per_merchant and notify_per_target: one merchant (or target)
 * holds at most an eighth of the slots, and a single merchant with a fast endpoint still gets the
 * throughput the worker had before caps (16 in flight: ~950 notifications/s in the bench).
 */
export const NOTIFY_PER_MERCHANT = 16;
export const NOTIFY_PER_TARGET = 16;

/** host:port of a notify_url (default port by scheme), the unit the per-target cap counts. */
export function targetKey(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname.toLowerCase()}:${u.port || (u.protocol === "https:" ? "443" : "80")}`;
  } catch {
    return url;
  }
}

export interface Caps {
  perMerchant: number;
  perTarget: number;
}

/** The attempts one worker has in flight, counted per merchant and per target. */
export class InFlight {
  private readonly byMerchant = new Map<number, number>();
  private readonly byTarget = new Map<string, number>();
  private readonly rows = new Map<number, { pid: number; target: string }>();

  get size(): number {
    return this.rows.size;
  }

  /** Takes a share for the row when both its merchant and its target are under their caps. */
  admit(id: number, pid: number, url: string, caps: Caps): boolean {
    const target = targetKey(url);
    if ((this.byMerchant.get(pid) ?? 0) >= caps.perMerchant || (this.byTarget.get(target) ?? 0) >= caps.perTarget) return false;
    this.byMerchant.set(pid, (this.byMerchant.get(pid) ?? 0) + 1);
    this.byTarget.set(target, (this.byTarget.get(target) ?? 0) + 1);
    this.rows.set(id, { pid, target });
    return true;
  }

  /** Gives the row's share back (its attempt was recorded, or the claim that admitted it failed). */
  release(id: number): void {
    const r = this.rows.get(id);
    if (!r) return;
    this.rows.delete(id);
    const dec = <K>(m: Map<K, number>, k: K) => ((m.get(k) ?? 1) <= 1 ? m.delete(k) : m.set(k, m.get(k)! - 1));
    dec(this.byMerchant, r.pid);
    dec(this.byTarget, r.target);
  }

  /** The share held under `from` now belongs to row `to` (a hand-off's row, named by its commit). */
  rekey(from: number, to: number): boolean {
    const r = this.rows.get(from);
    if (!r || this.rows.has(to)) return false;
    this.rows.delete(from);
    this.rows.set(to, r);
    return true;
  }

  has(id: number): boolean {
    return this.rows.has(id);
  }
}

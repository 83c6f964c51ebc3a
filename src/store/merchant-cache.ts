// Merchants are read once a second at most, by pid and as the whole list, on SQLite and PostgreSQL
// alike. Every signed request reads its merchant, and every report from the operator's client
// reads them all (it may pay any merchant's order: core/clients/reporter.ts), so without the list
// here a report read and mapped every merchant's row. A change made through the same store clears
// both at once; one from another process (the CLI, another instance) is seen within the second.
import type { Merchant } from "../core/types.ts";

const MERCHANT_CACHE_MS = 1000;
const MERCHANT_CACHE_MAX = 10_000; // unknown pids are cached too; a flood of them must not grow it

export class MerchantCache {
  private readonly byPid = new Map<number, { at: number; merchant: Merchant | null }>();
  private all: { at: number; merchants: Merchant[] } | null = null;
  /**
   * Moved by every clear: a read that started before a change is answered but not kept, or the
   * answer from before the change would be served for a second after it.
   */
  private generation = 0;

  async get(pid: number, read: () => Merchant | null | Promise<Merchant | null>): Promise<Merchant | null> {
    const now = Date.now();
    const hit = this.byPid.get(pid);
    if (hit && now - hit.at < MERCHANT_CACHE_MS) return hit.merchant;
    const generation = this.generation;
    const merchant = await read();
    if (generation !== this.generation) return merchant;
    if (this.byPid.size >= MERCHANT_CACHE_MAX) this.byPid.clear();
    this.byPid.set(pid, { at: now, merchant });
    return merchant;
  }

  /** A new array each call (callers may sort or filter it); the merchants in it are shared, as get's are. */
  async list(read: () => Merchant[] | Promise<Merchant[]>): Promise<Merchant[]> {
    const now = Date.now();
    if (this.all && now - this.all.at < MERCHANT_CACHE_MS) return [...this.all.merchants];
    const generation = this.generation;
    const merchants = await read();
    if (generation === this.generation) this.all = { at: now, merchants };
    return [...merchants];
  }

  clear(): void {
    this.generation++;
    this.byPid.clear();
    this.all = null;
  }
}

// How many create batches one store sends at a time (create-batch.ts). A batch runs on one server
// backend, one core of PostgreSQL. Two in flight let a second batch run while the first commits;
// more batches than the server has cores to run them only split the creates into smaller batches,
// each paying its call, its rollup fold and its commit (about 1 ms of PostgreSQL's CPU a batch,
// measured 2026-11-28), and queue them for the same cores. So the batches of every instance on a
// database share one budget, the server's cores, and each instance takes its part:
//   part = the budget / the instances creating now, at least 1, at most 2.
// The budget: XPAY_PG_CREATE_CALLS when set; else, for a server on this host (a loopback address or
// a socket), this host's cores, which the server uses; else none (a remote server's cores are not
// known here: every instance takes 2, as before). XPAY_PG_CREATE_BATCHES fixes the part instead.
// The instances creating now are read from pg_stat_activity every few seconds: every connection of
// a store is named `xpay <pid>@<host>` (open.ts), and an instance counts while one of its
// connections ran a batch in the last COUNTED_FOR_S seconds. A reading that fails, or a role that
// may not see other sessions' queries, counts this instance alone.
import { availableParallelism, hostname } from "node:os";
import type { SQL } from "bun";

/** Batches in flight per store at most (and with no budget). */
export const MAX_PART = 2;
const READ_EVERY_MS = 2_000;
const COUNTED_FOR_S = 10;

/**
 * A process's name on its connections (pg_stat_activity.application_name). PostgreSQL keeps 63
 * bytes and turns any byte outside printable ASCII into `?`, so the name is made of those already
 * (else this instance would not know its own name back and would count itself), and the pid comes
 * first (a long host name is cut, never the pid that tells two processes of one host apart).
 */
export function applicationName(pid: number, host: string): string {
  return `xpay ${pid}@${host.replace(/[^\x20-\x7e]/g, "?")}`.slice(0, 63);
}

export const APPLICATION_NAME = applicationName(process.pid, hostname());

const positive = (v: string | undefined): number | null => {
  const n = Math.floor(Number(v));
  return v !== undefined && v !== "" && n >= 1 ? n : null;
};

/** A server reached over loopback or a Unix socket runs on this host. */
export function isLocalServer(url: string): boolean {
  try {
    const u = new URL(url.trim());
    const host = u.hostname.replace(/^\[|\]$/g, "").toLowerCase();
    const socket = u.searchParams.get("host");
    if (host === "" || socket?.startsWith("/")) return true;
    return host === "localhost" || host === "::1" || /^127\./.test(host);
  } catch {
    // user@ with no host does not parse as a URL; a socket directory in `host=` is still local.
    return /[?&]host=(\/|%2F)/i.test(url);
  }
}

/** The database-wide budget of batches in flight, or null for none. */
export function createCallBudget(url: string, env: Record<string, string | undefined> = process.env): number | null {
  return positive(env.XPAY_PG_CREATE_CALLS) ?? (isLocalServer(url) ? availableParallelism() : null);
}

/** One instance's part of the budget. */
export function partOf(budget: number | null, instances: number): number {
  if (budget === null) return MAX_PART;
  return Math.min(MAX_PART, Math.max(1, Math.floor(budget / Math.max(1, instances))));
}

/** Other instances that ran a create batch on this database lately (`me` excluded). */
export async function otherCreatingInstances(sql: SQL, me = APPLICATION_NAME): Promise<number> {
  const rows = await sql`
    SELECT count(DISTINCT application_name)::int AS n FROM pg_stat_activity
    WHERE datname = current_database() AND application_name LIKE 'xpay %' AND application_name <> ${me}
      AND query LIKE 'SELECT * FROM xpay_create_orders(%' AND state_change > now() - make_interval(secs => ${COUNTED_FOR_S})`;
  return Number(rows[0]?.n ?? 0);
}

export class CallShare {
  private part: number;
  private readAt = 0;
  private reading = false;

  constructor(
    private readonly db: () => Promise<SQL>,
    private readonly budget: number | null,
    private readonly fixed: number | null = positive(process.env.XPAY_PG_CREATE_BATCHES),
  ) {
    this.part = fixed ?? partOf(budget, 1);
  }

  /** The part to use now; reads the instances again in the background when the last reading is old. */
  current(now = Date.now()): number {
    if (this.fixed !== null || this.budget === null) return this.part;
    if (!this.reading && now - this.readAt >= READ_EVERY_MS) {
      this.reading = true;
      this.readAt = now;
      this.db()
        .then((sql) => otherCreatingInstances(sql))
        .then((others) => (this.part = partOf(this.budget, others + 1)))
        .catch(() => (this.part = partOf(this.budget, 1)))
        .finally(() => (this.reading = false));
    }
    return this.part;
  }
}

// What a create costs PostgreSQL itself, read around a measurement (bench/pg-creates.ts, bench/pg.ts):
// - the server's CPU: the postmaster's and every backend's user + system time from /proc (the
//   backends that ended are in the postmaster's children's time);
// - pg_stat_statements (the cluster runs with shared_preload_libraries=pg_stat_statements; the
//   extension lives in the `postgres` database and is read for the measured database only):
//   calls, mean time, rows of the busiest statements;
// - WAL: bytes from pg_current_wal_lsn(), records, full-page images and flushes from pg_stat_wal
//   (track_wal_io_timing on: the flush time, which a commit waits for while holding its locks).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SQL } from "bun";

/** The cluster settings these readings need. */
export const COST_SETTINGS = { shared_preload_libraries: "pg_stat_statements", track_wal_io_timing: "on", "pg_stat_statements.track": "all" };

const TICK_MS = 10; // Linux USER_HZ: /proc times are in 1/100 s

function procTimes(pid: number): { self: number; children: number; ppid: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // fields after the name: state(0) ppid(1) ... utime(11) stime(12) cutime(13) cstime(14)
    return { ppid: Number(f[1]), self: (Number(f[11]) + Number(f[12])) * TICK_MS, children: (Number(f[13]) + Number(f[14])) * TICK_MS };
  } catch {
    return null;
  }
}

/** CPU milliseconds the whole server has used so far (postmaster, live backends, ended backends). */
export function serverCpuMs(dataDir: string): number {
  const pidFile = join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return 0;
  const master = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  const m = procTimes(master);
  if (!m) return 0;
  let total = m.self + m.children;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const p = procTimes(Number(name));
    if (p && p.ppid === master) total += p.self;
  }
  return total;
}

/** CPU milliseconds of one process (an `xpay serve`), user + system. */
export const processCpuMs = (pid: number): number => procTimes(pid)?.self ?? 0;

/**
 * CPU milliseconds each of a Bun process's JIT compiler threads (JavaScriptCore's `JITWorker`) has
 * used so far, by thread id. The threads come and go, so compare two readings with jitSince.
 */
export function jitThreadsMs(pid: number): Map<string, number> {
  const threads = new Map<string, number>();
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return threads;
  }
  for (const t of tasks) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${t}/stat`, "utf8");
      if (stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) !== "JITWorker") continue;
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      threads.set(t, (Number(f[11]) + Number(f[12])) * TICK_MS);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return threads;
}

/** JIT CPU ms between two readings: a thread that started since counts from 0; one that ended since is not seen (a slight undercount). */
export function jitSince(before: Map<string, number>, after: Map<string, number>): number {
  let ms = 0;
  for (const [t, v] of after) ms += v - (before.get(t) ?? 0);
  return ms;
}

export interface WalReading {
  lsn: string;
  records: number;
  fpi: number;
  syncs: number;
  syncMs: number;
}

export interface StatementCost {
  query: string;
  calls: number;
  meanMs: number;
  rows: number;
  totalMs: number;
}

/** The `postgres` database's connection, with pg_stat_statements installed there. */
export async function costReader(adminUrl: string) {
  const sql = new SQL(adminUrl, { max: 1 });
  await sql.unsafe("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
  return {
    async reset(): Promise<void> {
      await sql.unsafe("SELECT pg_stat_statements_reset()");
    },
    async wal(): Promise<WalReading> {
      const [r] = await sql.unsafe("SELECT pg_current_wal_lsn()::text AS lsn, wal_records, wal_fpi, wal_sync, wal_sync_time FROM pg_stat_wal");
      return { lsn: r.lsn, records: Number(r.wal_records), fpi: Number(r.wal_fpi), syncs: Number(r.wal_sync), syncMs: Number(r.wal_sync_time) };
    },
    async walBytes(from: string, to: string): Promise<number> {
      const [r] = await sql`SELECT pg_wal_lsn_diff(${to}::pg_lsn, ${from}::pg_lsn) AS b`;
      return Number(r.b);
    },
    /** The busiest statements run in `database` since the reset: top-level ones, or (nested) the ones functions and triggers ran. */
    async statements(database: string, limit = 6, nested = false): Promise<StatementCost[]> {
      const rows = await sql`
        SELECT s.query, s.calls, s.mean_exec_time, s.rows, s.total_exec_time FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
        WHERE d.datname = ${database} AND s.toplevel <> ${nested} ORDER BY s.total_exec_time DESC LIMIT ${limit}`;
      return rows.map((r: Record<string, unknown>) => ({
        query: String(r.query).replace(/\s+/g, " ").replace(/^SELECT .*? FROM (\w+)\(.*/, "SELECT ... FROM $1(...)").slice(0, 100), calls: Number(r.calls), meanMs: Number(r.mean_exec_time), rows: Number(r.rows), totalMs: Number(r.total_exec_time),
      }));
    },
    /** Statements planned during the run (track_planning on): plans, calls, mean planning time. */
    async plans(database: string, limit = 12): Promise<{ query: string; plans: number; calls: number; meanPlanMs: number; toplevel: boolean }[]> {
      const rows = await sql`
        SELECT s.query, s.plans, s.calls, s.mean_plan_time, s.toplevel FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
        WHERE d.datname = ${database} AND s.plans > 0 ORDER BY s.total_plan_time DESC LIMIT ${limit}`;
      return rows.map((r: Record<string, unknown>) => ({
        query: String(r.query).replace(/\s+/g, " ").slice(0, 110), plans: Number(r.plans), calls: Number(r.calls), meanPlanMs: Number(r.mean_plan_time), toplevel: Boolean(r.toplevel),
      }));
    },
    close: () => sql.close(),
  };
}

export type CostReader = Awaited<ReturnType<typeof costReader>>;

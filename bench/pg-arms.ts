// The three setups `npm run bench:pg` compares: `xpay serve` on a SQLite file, on PostgreSQL, and
// two `xpay serve` processes on one PostgreSQL database. Each start is a fresh database seeded as
// bench/seed.ts seeds SQLite (the Store API: merchant, 16 alipay accounts, max_offset, no rate
// limit), so no arm runs on another's orders; stop() ends the servers (the database stays until the
// cluster goes). The servers are spawned from BENCH_XPAY_ROOT (default: this checkout).
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PgCluster } from "../test/pg/cluster.ts";
import { BUN, freePort, waitHealthy } from "./lib.ts";
import type { PendingOrder } from "./notify.ts";
import { PID, seed } from "./seed.ts";
import { PUBLIC_TRADE_NO_SQL } from "../src/store/trade-no.ts";

export const XPAY_ROOT = process.env.BENCH_XPAY_ROOT ?? join(import.meta.dir, "..");

export type ArmName = "sqlite-1" | "pg-1" | "pg-2";
export const ARM_LABEL: Record<ArmName, string> = { "sqlite-1": "SQLite, 1 instance", "pg-1": "PostgreSQL, 1 instance", "pg-2": "PostgreSQL, 2 instances" };

export interface Arm {
  name: ArmName;
  /** each instance's base URL */
  gateways: string[];
  pids: number[];
  /** the PostgreSQL database's name (null on SQLite) */
  database: string | null;
  /** PostgreSQL's durability settings as the arm's own session reads them (null on SQLite) */
  durability: string | null;
  /** the pending orders whose out_trade_no starts with prefix (what the phone would report) */
  pending(prefix: string): Promise<PendingOrder[]>;
  /** (account, trade_amount) pairs held by more than one live pending order: must be 0 */
  slotsHeldTwice(): Promise<number>;
  stop(): Promise<void>;
}

/** The bench merchant's orders by out_trade_no prefix, with what its phone reports (append the quoted LIKE pattern). */
export const PENDING = `SELECT ${PUBLIC_TRADE_NO_SQL} AS trade_no, o.trade_amount, o.account_id, a.code FROM orders o JOIN channel_accounts a ON a.id = o.account_id WHERE o.pid = ${PID} AND o.out_trade_no LIKE `;
/** expire_time is in Unix seconds, as the core's clock.now() */
const nowSeconds = () => Math.floor(Date.now() / 1000);
const HELD_TWICE = (now: number) =>
  `SELECT count(*) AS n FROM (SELECT account_id, trade_amount FROM orders WHERE status = 1 AND expire_time > ${now} GROUP BY account_id, trade_amount HAVING count(*) > 1) t`;

/**
 * BENCH_PG_SYNCHRONOUS_COMMIT=off: PostgreSQL's commit no longer waits for its WAL flush (fsync and
 * full_page_writes stay on): what SQLite's WAL with synchronous = NORMAL does (src/store/db.ts).
 */
export const SYNCHRONOUS_COMMIT = ((v) => {
  if (v === undefined || v === "") return null;
  if (v !== "on" && v !== "off") throw new Error("BENCH_PG_SYNCHRONOUS_COMMIT is on or off");
  return v;
})(process.env.BENCH_PG_SYNCHRONOUS_COMMIT);

let n = 0;

/** Which checkout's server an arm runs, and Bun flags before the script (`--cpu-prof-md` to profile it). */
export interface ServeFrom {
  root?: string;
  bunFlags?: string[];
  /** the directory each server process runs in (where `--cpu-prof-md` writes its profile) */
  cwd?: string;
}

function spawnServe(db: string, port: number, from: ServeFrom): ReturnType<typeof Bun.spawn> {
  return Bun.spawn([BUN, ...(from.bunFlags ?? []), join(from.root ?? XPAY_ROOT, "src/cli/main.ts"), "serve", "--port", String(port), "--log-format", "json"], {
    ...(from.cwd ? { cwd: from.cwd } : {}),
    env: { ...process.env, XPAY_DB: db },
    stdout: "ignore", // the access log is still written (one line per request), as in bench/rig.ts
    stderr: "inherit",
  });
}

async function serve(db: string, instances: number, from: ServeFrom): Promise<{ gateways: string[]; procs: ReturnType<typeof Bun.spawn>[] }> {
  const ports = await Promise.all(Array.from({ length: instances }, () => freePort()));
  // Started together, as an operator's two units would be (the schema is already migrated by the seed).
  const procs = ports.map((p) => spawnServe(db, p, from));
  const gateways = ports.map((p) => `http://127.0.0.1:${p}`);
  try {
    await Promise.all(gateways.map((g) => waitHealthy(`${g}/healthz`, 30_000, 20)));
  } catch (e) {
    for (const p of procs) p.kill("SIGTERM");
    throw e;
  }
  return { gateways, procs };
}

async function stopAll(procs: ReturnType<typeof Bun.spawn>[]): Promise<void> {
  for (const p of procs) p.kill("SIGTERM");
  await Promise.all(procs.map((p) => p.exited));
}

/**
 * The arm's checkout's own seed: a database seeded by a newer checkout has a schema an older server
 * refuses. The checkout is the arm's root, else BENCH_XPAY_ROOT's (which `npm run bench:pg` takes).
 */
async function seedFor(from: ServeFrom): Promise<typeof seed> {
  const root = from.root ?? XPAY_ROOT;
  return root !== join(import.meta.dir, "..") ? (await import(join(root, "bench/seed.ts"))).seed : seed;
}

export async function startArm(name: ArmName, cluster: PgCluster | null, from: ServeFrom = {}): Promise<Arm> {
  const seed = await seedFor(from);
  if (name === "sqlite-1") {
    const dir = mkdtempSync(join(tmpdir(), "xpay-bench-pg-sqlite-"));
    const dbPath = join(dir, "xpay.db");
    await seed(dbPath);
    const { gateways, procs } = await serve(dbPath, 1, from).catch((e) => {
      rmSync(dir, { recursive: true, force: true });
      throw e;
    });
    const read = <T>(q: string): T[] => {
      const db = new Database(dbPath, { readonly: true });
      try {
        return db.query(q).all() as T[];
      } finally {
        db.close();
      }
    };
    return {
      name, gateways, pids: procs.map((p) => p.pid), durability: null, database: null,
      pending: async (prefix) => read<PendingOrder>(`${PENDING}'${prefix}%'`),
      slotsHeldTwice: async () => read<{ n: number }>(HELD_TWICE(nowSeconds()))[0]!.n,
      stop: async () => {
        await stopAll(procs);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  if (!cluster) throw new Error(`${name} needs the PostgreSQL cluster`);
  const url = await cluster.createDatabase(`bench_${process.pid}_${++n}`);
  if (SYNCHRONOUS_COMMIT) {
    const admin = new SQL(url, { max: 1 });
    await admin.unsafe(`ALTER DATABASE "${new URL(url).pathname.slice(1)}" SET synchronous_commit = ${SYNCHRONOUS_COMMIT}`);
    await admin.close();
  }
  await seed(url); // the Store API on PostgreSQL: migrates, then the same rows as on SQLite
  const { gateways, procs } = await serve(url, name === "pg-2" ? 2 : 1, from);
  const sql = new SQL(url, { max: 1 });
  const show = async (k: string) => `${k} ${((await sql.unsafe(`SHOW ${k}`)) as Record<string, string>[])[0]![k]}`;
  const durability = (await Promise.all(["fsync", "synchronous_commit", "full_page_writes"].map(show))).join(", ");
  return {
    name, gateways, pids: procs.map((p) => p.pid), durability, database: new URL(url).pathname.slice(1),
    // the prefix is ours (letters, digits, '-'): inlined, as the SQLite reader does
    pending: async (prefix) =>
      ((await sql.unsafe(`${PENDING}'${prefix}%'`)) as PendingOrder[]).map((r) => ({ ...r, trade_amount: Number(r.trade_amount), account_id: Number(r.account_id) })),
    slotsHeldTwice: async () => Number(((await sql.unsafe(HELD_TWICE(nowSeconds()))) as { n: number }[])[0]!.n),
    stop: async () => {
      await sql.close();
      await stopAll(procs);
    },
  };
}

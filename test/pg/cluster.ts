// A throwaway PostgreSQL cluster for the tests: initdb into a temporary folder, pg_ctl start on a
// free loopback port (its unix socket in that folder too), databases made on demand, and everything
// stopped and removed at the end, also when a test fails or the process is interrupted.
// initdb refuses to run as root: as root, the cluster runs as an unprivileged user that owns it.
import { spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import { afterAll, beforeAll, expect, test } from "bun:test";

export interface PgCluster {
  /** postgres://xpay@127.0.0.1:PORT/<name> */
  url(database: string): string;
  port: number;
  /** A new empty database; its URL. */
  createDatabase(name?: string): Promise<string>;
  stop(): void;
}

/** The folder holding initdb and pg_ctl: PATH first, then Debian's /usr/lib/postgresql/<major>/bin. */
export function findPgBin(): string | null {
  const onPath = Bun.which("initdb");
  if (onPath && Bun.which("pg_ctl")) return join(onPath, "..");
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const majors = readdirSync(root).filter((v) => existsSync(join(root, v, "bin", "initdb"))).sort((a, b) => Number(b) - Number(a));
  return majors.length ? join(root, majors[0]!, "bin") : null;
}

/**
 * Whether PostgreSQL tests run here. Without PostgreSQL they are skipped with a loud line, except
 * in CI (CI=true), where a missing server is a failure: .ci/run installs it.
 */
export function pgAvailability(): { run: true } | { run: false; fail: boolean; why: string } {
  if (findPgBin()) return { run: true };
  const why = "PostgreSQL is not installed (no initdb on PATH or in /usr/lib/postgresql/*/bin): the PostgreSQL store tests did NOT run; install Debian's postgresql package";
  return { run: false, fail: process.env.CI === "true", why };
}

/**
 * Registers the tests `body` defines when PostgreSQL is here; otherwise prints one loud line and,
 * in CI, registers one failing test in their place (every PostgreSQL test file starts with it).
 */
export function withPostgres(body: () => void): void {
  const availability = pgAvailability();
  if (availability.run) return body();
  console.warn(`\n!!! ${availability.why}\n`);
  if (availability.fail) test("PostgreSQL is installed (CI=true)", () => expect(availability.why).toBe(""));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** root: run as `postgres` (Debian's package creates it) or `nobody`; anyone else: as themselves. */
function runAs(): { user: string; uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  for (const user of ["postgres", "nobody"]) {
    const id = spawnSync("id", ["-u", user], { encoding: "utf8" });
    const gid = spawnSync("id", ["-g", user], { encoding: "utf8" });
    if (id.status === 0) return { user, uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()) };
  }
  throw new Error("running as root and neither user postgres nor nobody exists: initdb refuses root");
}

function run(bin: string, args: string[], as: ReturnType<typeof runAs>): void {
  const cmd = as ? ["runuser", "-u", as.user, "--", bin, ...args] : [bin, ...args];
  const r = spawnSync(cmd[0]!, cmd.slice(1), { encoding: "utf8", timeout: 60_000 });
  if (r.status !== 0) throw new Error(`${bin.split("/").pop()} failed (${r.status}): ${r.stderr || r.stdout || r.error}`);
}

/** A folder the cluster's user can reach: the temporary folder when others may enter it, else /tmp. */
function baseDir(as: ReturnType<typeof runAs>): string {
  const t = tmpdir();
  return !as || (statSync(t).mode & 0o001) !== 0 ? t : "/tmp";
}

const live = new Set<() => void>();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    for (const stop of live) stop();
    process.exit(130);
  });
}
process.once("exit", () => {
  for (const stop of live) stop();
});

/** One cluster for the whole file, started before its tests and stopped after them: call it inside withPostgres. */
export function clusterPerFile(): () => PgCluster {
  let cluster: PgCluster | null = null;
  beforeAll(async () => {
    cluster = await startCluster();
  }, 120_000);
  afterAll(() => cluster?.stop());
  return () => cluster!;
}

/**
 * durable: keep PostgreSQL's default fsync, synchronous_commit and full_page_writes (the benchmark).
 * settings: more `-c name=value` (the benchmark's shared_preload_libraries=pg_stat_statements).
 */
export async function startCluster(o: { durable?: boolean; settings?: Record<string, string> } = {}): Promise<PgCluster & { dataDir: string }> {
  const bin = findPgBin();
  if (!bin) throw new Error(pgAvailability().run ? "unreachable" : "PostgreSQL is not installed");
  const as = runAs();
  const dir = mkdtempSync(join(baseDir(as), "xpay-pg-"));
  if (as) chownSync(dir, as.uid, as.gid);
  const data = join(dir, "data");
  let started = false;
  const stop = () => {
    live.delete(stop);
    if (started) {
      try {
        run(join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"], as);
      } catch {
        // already gone
      }
      started = false;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  live.add(stop);
  try {
    run(join(bin, "initdb"), ["-D", data, "-U", "xpay", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"], as);
    let port = 0;
    for (let attempt = 0; ; attempt++) {
      port = await freePort();
      // Durability off: the cluster lives for one test run (the benchmark keeps the defaults: durable).
      const fast = o.durable ? "" : " -c fsync=off -c synchronous_commit=off -c full_page_writes=off";
      const more = Object.entries(o.settings ?? {}).map(([k, v]) => ` -c ${k}=${v}`).join("");
      const opts = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir}${fast} -c max_connections=200${more}`;
      try {
        run(join(bin, "pg_ctl"), ["-D", data, "-l", join(dir, "server.log"), "-w", "-t", "60", "-o", opts, "start"], as);
        started = true;
        break;
      } catch (e) {
        if (attempt >= 2) throw e; // the free port was taken between the probe and the start
      }
    }
    const url = (database: string) => `postgres://xpay@127.0.0.1:${port}/${database}`;
    let n = 0;
    return {
      url,
      port,
      dataDir: data,
      async createDatabase(name = `t${process.pid}_${++n}`) {
        const admin = new SQL(url("postgres"), { max: 1 });
        try {
          await admin.unsafe(`CREATE DATABASE "${name.replace(/"/g, "")}"`);
        } finally {
          await admin.close();
        }
        return url(name);
      },
      stop,
    };
  } catch (e) {
    stop();
    throw e;
  }
}

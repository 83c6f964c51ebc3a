// Backups that rotate and restore on PostgreSQL: `xpay backup --dir --keep` while a serve runs on
// the database, `xpay restore` into an empty database (the copier of `xpay db copy`), and the
// refusals: --force, a database a serve runs on.
import { afterAll, beforeAll, describe, expect, test as bunTest } from "bun:test";
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { BACKUP_NAME } from "../../src/core/backup-files.ts";
import { tempDir } from "../helpers.ts";
import { type PgCluster, startCluster, withPostgres } from "./cluster.ts";

const test = (name: string, fn: () => void | Promise<unknown>) => bunTest(name, fn, 60_000);

function xpay(args: string[]) {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1" };
  delete env.XPAY_DB;
  const p = Bun.spawnSync([process.execPath, "src/cli/main.ts", ...args], { env });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

withPostgres(() => {
  describe("backup and restore on PostgreSQL", () => {
    let cluster: PgCluster;
    let url = "";
    const dir = tempDir("xpay-pg-rotate-");
    let server: Bun.Subprocess<"ignore", "pipe", "pipe"> | null = null;
    let port = 0;
    beforeAll(async () => {
      cluster = await startCluster();
      url = await cluster.createDatabase("rotate");
      expect(xpay(["--db", url, "migrate"]).code).toBe(0);
      expect(xpay(["--db", url, "merchant", "add", "--name", "PG shop"]).code).toBe(0);
      // A real serve on the database, for "online" and for "never under a running serve".
      server = Bun.spawn([process.execPath, "src/cli/main.ts", "--db", url, "serve", "--port", "0", "--no-admin"], { env: { ...process.env, NO_COLOR: "1" }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      const reader = server.stdout.getReader();
      let out = "";
      while (!out.includes("listening")) {
        const c = await reader.read();
        if (c.done) throw new Error(`serve stopped: ${out}`);
        out += new TextDecoder().decode(c.value);
      }
      reader.releaseLock();
      port = Number(/127\.0\.0\.1:(\d+)/.exec(out)![1]);
    }, 120_000);
    afterAll(async () => {
      if (server && server.exitCode === null) server.kill("SIGKILL");
      await server?.exited;
      cluster?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    test("--dir --keep while serve runs: dated 0600 SQLite files, the oldest removed", async () => {
      const folder = join(dir, "b");
      for (let i = 0; i < 3; i++) {
        const r = xpay(["--db", url, "backup", "--dir", folder, "--keep", "2"]);
        expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: "" });
        if (i < 2) await Bun.sleep(1050);
      }
      const names = readdirSync(folder).sort();
      expect(names).toHaveLength(2);
      for (const n of names) {
        expect(n).toMatch(BACKUP_NAME);
        expect(statSync(join(folder, n)).mode & 0o777).toBe(0o600);
      }
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    });

    test("restore into an empty database copies the backup; --force and a database a serve runs on are refused", async () => {
      const folder = join(dir, "b");
      const file = join(folder, readdirSync(folder).sort().at(-1)!);
      const forced = xpay(["--db", url, "restore", file, "--force"]);
      expect(forced.code).toBe(1);
      expect(forced.err).toContain("--force does not apply to PostgreSQL: a restore goes into an empty database only");
      const busy = xpay(["--db", url, "restore", file]);
      expect(busy.code).toBe(1);
      expect(busy.err).toMatch(new RegExp(`^error: xpay serve runs on .+ \\(pid ${server!.pid} on .+, port ${port}, .+\\): stop it first`));
      const empty = await cluster.createDatabase("restored");
      const r = xpay(["--db", empty, "restore", file, "--json"]);
      expect(r.err).toBe("");
      expect(JSON.parse(r.out)).toMatchObject({ restored: file, verified: true });
      expect(JSON.parse(xpay(["--db", empty, "merchant", "list", "--json"]).out).map((m: { name: string }) => m.name)).toEqual(["PG shop"]);
      // Not empty any more: a second restore into it is refused by the copier.
      const again = xpay(["--db", empty, "restore", file]);
      expect(again.code).toBe(1);
      expect(again.err.trim().split("\n")).toHaveLength(1);
    });
  });
});

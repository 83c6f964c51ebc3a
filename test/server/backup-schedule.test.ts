// serve's backup schedule (server/backup-loop.ts): dated 0600 files in the folder, the oldest of
// xpay's own removed beyond keep (anything else left alone), the state in /healthz, and a failing
// run alerted as backup_failed (still 200: the gateway takes payments) and resolved by a good one.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BACKUP_NAME } from "../../src/core/backup-files.ts";
import { backupStatus } from "../../src/core/backup-status.ts";
import { startBackups } from "../../src/server/backup-loop.ts";
import { BASE } from "../helpers.ts";
import { alertHarness, pass } from "../alerts/util.ts";

let cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(25);
  }
}

const health = async (x: Awaited<ReturnType<typeof alertHarness>>) => {
  const r = await x.h.app.handle(new Request(`${BASE}/healthz`));
  return { status: r.status, body: (await r.json()) as any };
};

test("runs at once into an empty folder, then every interval; keeps the newest N of its own files, 0600; /healthz says when and where", async () => {
  const x = await alertHarness();
  cleanup.push(x.close);
  const dir = join(x.h.dir, "backups");
  mkdirSync(dir);
  writeFileSync(join(dir, "xpay-by-hand.db"), "mine"); // not xpay's naming: never removed
  writeFileSync(join(dir, "notes.txt"), "mine");
  const loop = startBackups(x.h.gw, { dir, everyMs: 1000, keep: 2 });
  cleanup.push(() => loop.stop());
  // The third run is the first that removes one (keep 2).
  await until("a run that rotated", () => (backupStatus(x.h.gw)?.last?.removed ?? 0) > 0, 15_000);
  const ours = readdirSync(dir).filter((n) => BACKUP_NAME.test(n)).sort();
  expect(ours).toHaveLength(2);
  expect(readdirSync(dir)).toContain("xpay-by-hand.db");
  expect(readdirSync(dir)).toContain("notes.txt");
  for (const n of ours) expect((statSync(join(dir, n)).mode & 0o777).toString(8)).toBe("600");
  const h = await health(x);
  expect(h.status).toBe(200);
  expect(h.body.backup).toMatchObject({ dir, every_s: 1, keep: 2, status: "ok", last_file: join(dir, ours.at(-1)!) });
  expect(Date.parse(h.body.backup.next_at)).toBeGreaterThan(Date.parse(h.body.backup.last_at));
});

test("a restart waits one interval after the newest backup in the folder, not a fresh one at each start", async () => {
  const x = await alertHarness();
  cleanup.push(x.close);
  const dir = join(x.h.dir, "backups");
  const first = startBackups(x.h.gw, { dir, everyMs: 60_000, keep: 3 });
  await until("the first run", () => backupStatus(x.h.gw)?.last?.ok === true);
  await first.stop();
  const again = startBackups(x.h.gw, { dir, everyMs: 60_000, keep: 3 });
  cleanup.push(() => again.stop());
  await Bun.sleep(300);
  expect(readdirSync(dir).filter((n) => BACKUP_NAME.test(n))).toHaveLength(1);
  expect(backupStatus(x.h.gw)!.next).toBeGreaterThan(Date.now() + 50_000);
  expect((await health(x)).body.backup.status).toBe("pending");
});

test("a failing run: /healthz shows it (200), the backup_failed alert fires, and a good run resolves it", async () => {
  const x = await alertHarness();
  cleanup.push(x.close);
  const dir = join(x.h.dir, "backups");
  writeFileSync(dir, "a file where the folder should be"); // mkdir fails: EEXIST
  expect(await pass(x.h, x.s)).toEqual([]); // nothing scheduled, nothing failing
  const loop = startBackups(x.h.gw, { dir, everyMs: 500, keep: 2 });
  cleanup.push(() => loop.stop());
  await until("a failed run", () => backupStatus(x.h.gw)?.last?.ok === false);
  const h = await health(x);
  expect(h.status).toBe(200);
  expect(h.body.status).toBe("ok");
  expect(h.body.backup).toMatchObject({ status: "failed" });
  expect(h.body.backup.error).toMatch(/EEXIST|exists|not a directory/i);
  const fired = await pass(x.h, x.s);
  expect(fired).toMatchObject([{ event: "firing", condition: "backup_failed" }]);
  expect(fired[0].text).toContain(`The scheduled backup into ${dir} failed`);
  expect(await pass(x.h, x.s)).toEqual([]); // once per episode

  rmSync(dir);
  await until("a good run", () => backupStatus(x.h.gw)?.last?.ok === true);
  expect((await health(x)).body.backup.status).toBe("ok");
  expect(await pass(x.h, x.s)).toMatchObject([{ event: "resolved", condition: "backup_failed" }]);
});

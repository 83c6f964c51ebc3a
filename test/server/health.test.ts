import { afterEach, beforeEach, expect, test } from "bun:test";
import { chmodSync } from "node:fs";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { harness, type Harness } from "../helpers.ts";

let h: Harness;
beforeEach(() => {
  h = harness();
});
afterEach(() => h.close());

const get = async (path: string) => {
  const res = await h.app.handle(new Request(`http://localhost${path}`));
  return { status: res.status, body: (await res.json()) as any };
};

test("healthz: ok with a writable db and beating loops; 503 when a loop stalls", async () => {
  const ok = await get("/healthz");
  expect(ok.status).toBe(200);
  expect(ok.body).toMatchObject({ status: "ok", db: "ok", version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  h.gw.beats.set("notifier", Date.now() - 60_000);
  const bad = await get("/healthz");
  expect(bad.status).toBe(503);
  expect(bad.body.workers.notifier).toContain("stalled");
});

test("backup is a consistent, openable copy; a second backup to the same path is refused", async () => {
  await h.gw.store.addMerchant({ pid: 1001, name: "Shop", secret: "s".repeat(32), now: 1 });
  const path = join(h.dir, "backup.db");
  await h.gw.store.backupTo(path);
  const copy = new Database(path, { readonly: true });
  expect((copy.query("SELECT name FROM merchants").get() as { name: string }).name).toBe("Shop");
  copy.close();
  await expect(h.gw.store.backupTo(path)).rejects.toThrow("exists already");
  chmodSync(path, 0o600);
});

test("the notification worker beats while it runs and leaves /healthz when stopped", async () => {
  const { startWorker } = await import("../../src/server/worker.ts");
  const worker = startWorker(h.gw, { pollMs: 50 });
  await Bun.sleep(120);
  const running = await get("/healthz");
  expect(running.status).toBe(200);
  expect(running.body.workers).toEqual({ notifier: "alive" });
  await worker.stop();
  expect((await get("/healthz")).body.workers).toEqual({});
});

// Issue 28, /admin/backups: without serve's --backup-dir the page says how to set one and refuses
// to run; with it, 立即备份 writes a real backup into the folder (the schedule's own function,
// audited), the list offers it, and the download streams exactly that file (audited); names not
// of xpay's pattern, or outside the folder, are 404.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setBackupStatus } from "../../src/core/backup-status.ts";
import { tempDir } from "../helpers.ts";
import { type AdminHarness, adminHarness, auditRows } from "./support.ts";

let h: AdminHarness;
const dir = tempDir("xpay-backups-page-");
beforeAll(async () => {
  h = await adminHarness();
});
afterAll(() => {
  h.close();
  rmSync(dir, { recursive: true, force: true });
});

test("no --backup-dir: how to set one; running refused, nothing audited", async () => {
  const html = await (await h.get("/admin/backups")).text();
  expect(html).toContain('href="/admin/backups"');
  expect(html).toContain("--backup-dir");
  const rows = (await auditRows(h)).length;
  expect((await h.post("/admin/backups", {})).status).toBe(409);
  expect((await auditRows(h)).length).toBe(rows);
});

test("with a folder: run one (audited), listed, downloaded byte for byte (audited); other names 404", async () => {
  setBackupStatus(h.gw, { dir, everyMs: 86_400_000, keep: 3, next: Date.now() + 3_600_000, last: null, lastGood: null, failingSince: null });
  writeFileSync(join(dir, "notes.db"), "operator's own file");
  const r = await h.post("/admin/backups", {});
  expect(r.status).toBe(200);
  const html = await r.text();
  const name = /备份完成：(xpay-[0-9T-]+Z(?:-\d+)?\.db)/.exec(html)?.[1];
  expect(name).toBeDefined();
  expect((await auditRows(h)).at(-1)!.action).toBe("backup.run");
  const list = await (await h.get("/admin/backups")).text();
  expect(list).toContain(`href="/admin/backups/${name}"`);
  expect(list).not.toContain("notes.db");
  const d = await h.get(`/admin/backups/${name}`);
  expect(d.status).toBe(200);
  expect(d.headers.get("content-disposition")).toBe(`attachment; filename="${name}"`);
  const body = new Uint8Array(await d.arrayBuffer());
  expect(body.length).toBeGreaterThan(0);
  expect(Buffer.from(body).equals(readFileSync(join(dir, name!)))).toBe(true);
  expect(Buffer.from(body.slice(0, 15)).toString()).toBe("SQLite format 3");
  const a = (await auditRows(h)).at(-1)!;
  expect(a.action).toBe("backup.download");
  expect(a.target).toBe(`backup:${name}`);
  for (const bad of ["notes.db", "..%2Fx.db", "xpay-2026-11-26T000000Z.db"]) expect((await h.get(`/admin/backups/${bad}`)).status).toBe(404);
  expect((await h.get(`/admin/backups/${name}`, { cookie: null })).status).not.toBe(200);
  expect((await h.post("/admin/backups", {}, { csrf: null })).status).toBe(403);
  setBackupStatus(h.gw, null);
});

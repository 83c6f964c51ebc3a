// Issue 27 item 7, storage: every failed console login wrote an audit row, kept forever. Now a
// failure is a count in login_failures (per typed user name, browser, minute and address: failed
// and refused), shown on the sessions page and by `xpay admin failed-logins`, and pruned by serve's
// retention loop after login_failure_retention_days. The audit rows an older version wrote become
// counters of the same shape when the database is upgraded.
import { Database } from "bun:sqlite";
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { rmSync } from "node:fs";
import { startRetention } from "../../src/server/retention-loop.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import { MIGRATIONS } from "../../src/store/migrations/index.ts";
import { migrate } from "../../src/store/migrate.ts";
import { tempDir } from "../helpers.ts";
import { type AdminHarness, adminHarness, auditRows, loginForm } from "../admin/support.ts";

setDefaultTimeout(60_000); // argon2 on every attempt, on a shared two-core machine
let h: AdminHarness;
beforeEach(async () => (h = await adminHarness({ trustProxy: 1 })));
afterEach(() => h.close());

const DAY = 86_400;
const counters = () => h.gw.store.admin.listLoginFailures({ since: 0, limit: 1000 });

test("a flood of failed logins writes no audit row: it is counted per user name, address and minute, failed or refused", async () => {
  h.clock.advance(60 - (h.clock.now() % 60));
  const minute = h.clock.now();
  for (let i = 0; i < 24; i++) await loginForm(h, i % 2 ? "alice" : "admin", "wrong password", { ip: `198.51.100.${i % 3}` });
  h.clock.advance(60);
  for (let i = 0; i < 6; i++) await loginForm(h, "root", "wrong password", { ip: "198.51.100.9" });
  expect((await auditRows(h)).filter((e) => e.action !== "operator.add")).toEqual([]);
  const rows = await counters();
  expect(rows.length).toBeLessThanOrEqual(7); // 30 attempts: at most 3 addresses x 2 names + 1, not one row each
  expect(rows.reduce((n, r) => n + r.failed + r.refused, 0)).toBe(30);
  expect(rows[0]).toMatchObject({ window: minute + 60, user: "root", ip: "198.51.100.9", device: "", failed: 5, refused: 1 });
  // alice: 5 failures and then the name is locked for unknown browsers; admin is another name.
  const alice = rows.filter((r) => r.user === "alice");
  expect([alice.reduce((n, r) => n + r.failed, 0), alice.reduce((n, r) => n + r.refused, 0)]).toEqual([5, 7]);
});

test("the sessions page summarises the last day's failed logins, a stranger's user name escaped", async () => {
  await loginForm(h, "<img src=x onerror=alert(1)>", "wrong", { ip: "198.51.100.5" });
  const html = await (await h.get("/admin/sessions")).text();
  const card = html.slice(html.indexOf('id="login-failures"'));
  expect(card).toContain("失败的登录");
  expect(card).toContain("&lt;img src=x onerror=alert(1)&gt;");
  expect(card).not.toContain("<img src=x");
  expect(card).toContain("198.51.100.5");
  expect(card).toContain("陌生浏览器");
});

test("serve's retention loop deletes counters older than login_failure_retention_days; 0 keeps them", async () => {
  await loginForm(h, "admin", "wrong", { ip: "198.51.100.5" });
  h.clock.advance(29 * DAY);
  await loginForm(h, "admin", "wrong", { ip: "198.51.100.6" });
  h.clock.advance(2 * DAY); // the first is 31 days old, the second 2
  await h.gw.store.setSetting("login_failure_retention_days", "0");
  const prune = async () => {
    h.gw.forgetSettings(); // as a running serve does within a second
    const loop = startRetention(h.gw, { everyMs: 60_000 });
    await loop.stop(); // the run at start, awaited
  };
  await prune();
  expect((await counters()).map((r) => r.ip).sort()).toEqual(["198.51.100.5", "198.51.100.6"]);
  await h.gw.store.setSetting("login_failure_retention_days", "30");
  await prune();
  expect((await counters()).map((r) => r.ip)).toEqual(["198.51.100.6"]);
});

test("upgrading a database turns its session.login_failed audit rows into counters and leaves the rest of the audit log alone", async () => {
  const dir = tempDir();
  try {
    const path = join(dir, "old.db");
    const db = new Database(path, { strict: true });
    migrate(db, MIGRATIONS.filter((m) => m.version < 17));
    const row = db.query("INSERT INTO audit_log (at, actor, action, target, ip, before_json, after_json, reason) VALUES ($at, $actor, $action, $target, $ip, NULL, NULL, '')");
    for (const at of [1_800_000_005, 1_800_000_030, 1_800_000_070]) row.run({ at, actor: "anonymous", action: "session.login_failed", target: "operator:Admin", ip: "198.51.100.1" });
    row.run({ at: 1_800_000_040, actor: "anonymous", action: "session.login_failed", target: "operator:bob", ip: "198.51.100.2" });
    row.run({ at: 1_800_000_050, actor: "alice", action: "session.login", target: "session:1", ip: "198.51.100.3" });
    db.close();
    const gw = openGateway({ db: path });
    try {
      const rows = await gw.store.admin.listLoginFailures({ since: 0, limit: 10 });
      expect(rows.map((r) => [r.window, r.user, r.ip, r.device, r.failed, r.refused, r.firstAt, r.lastAt])).toEqual([
        [1_800_000_060, "admin", "198.51.100.1", "", 1, 0, 1_800_000_070, 1_800_000_070],
        [1_800_000_000, "admin", "198.51.100.1", "", 2, 0, 1_800_000_005, 1_800_000_030],
        [1_800_000_000, "bob", "198.51.100.2", "", 1, 0, 1_800_000_040, 1_800_000_040],
      ]);
      expect((await gw.store.admin.listAudit({ limit: 10 })).map((e) => e.action)).toEqual(["session.login"]);
    } finally {
      gw.store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

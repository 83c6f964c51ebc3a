// Issue 27 item 7 with several instances: two gateways (each its own connection pool, as two
// `xpay serve` processes have) on one PostgreSQL database. The login throttle's counts are in the
// store, so failures through either instance lock the name on both, a parallel burst split over
// both lets no more attempts reach the password check than one instance would, a browser that
// logged in through one instance is known to the other (the device cookie's key is the database's),
// and the failures are counters both read, not audit rows. Before, each instance counted in its
// own memory: twice the attempts, and a restart forgot them.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { CLI_ACTOR } from "../../src/core/admin/audit.ts";
import { addOperator } from "../../src/core/admin/operators.ts";
import type { Gateway } from "../../src/core/gateway.ts";
import { buildApp } from "../../src/server/app.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import type { PostgresStore } from "../../src/store/postgres/index.ts";
import { deviceCookieOf, loginForm } from "../admin/support.ts";
import { type PgCluster, startCluster, withPostgres } from "./cluster.ts";

const PASSWORD = "correct horse battery";

withPostgres(() => {
  let cluster: PgCluster | null = null;
  const gws: Gateway[] = [];
  let a: { app: ReturnType<typeof buildApp> };
  let b: { app: ReturnType<typeof buildApp> };

  beforeAll(async () => {
    cluster = await startCluster();
    const url = await cluster.createDatabase("logins");
    for (let i = 0; i < 2; i++) {
      const gw = openGateway({ db: url, trustProxy: 1 });
      await (gw.store as PostgresStore).ready;
      gws.push(gw);
    }
    a = { app: buildApp(gws[0]!) };
    b = { app: buildApp(gws[1]!) };
    for (const name of ["admin", "bob"]) if ((await addOperator(gws[0]!, CLI_ACTOR, name, PASSWORD)).kind !== "added") throw new Error(name);
  }, 120_000);

  afterAll(async () => {
    for (const gw of gws) await (gw.store as PostgresStore).end();
    cluster?.stop();
  });

  test("failures through either instance lock the name on both for unknown browsers; the browser that logged in through one is known to the other", async () => {
    const first = await loginForm(a, "admin", PASSWORD, { ip: "203.0.113.5" });
    expect(first.status).toBe(303);
    const device = deviceCookieOf(first) ?? "";
    for (let i = 0; i < 5; i++) expect((await loginForm(i < 3 ? a : b, "admin", `guess ${i}`, { ip: `198.51.100.${i}` })).status).toBe(401);
    expect((await loginForm(b, "admin", PASSWORD, { ip: "198.51.100.50" })).status).toBe(429);
    expect((await loginForm(a, "admin", PASSWORD, { ip: "198.51.100.51" })).status).toBe(429);
    expect((await loginForm(b, "admin", PASSWORD, { ip: "203.0.113.5", cookie: device })).status).toBe(303);
    // What one instance counted, the other reads; nothing of it is in the audit log.
    const rows = await gws[1]!.store.admin.listLoginFailures({ since: 0, user: "admin", limit: 100 });
    expect([rows.reduce((n, r) => n + r.failed, 0), rows.reduce((n, r) => n + r.refused, 0)]).toEqual([5, 2]);
    expect((await gws[0]!.store.admin.listAudit({ limit: 100 })).map((e) => e.action).filter((x) => x !== "operator.add")).toEqual(["session.login", "session.login"]);
  }, 60_000);

  test("a burst of 20 parallel wrong logins on one name, split over the two instances, lets at most 5 reach the password check", async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => loginForm(i % 2 ? a : b, "bob", `guess ${i}`, { ip: `198.51.101.${i}` })));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    const rows = await gws[0]!.store.admin.listLoginFailures({ since: 0, user: "bob", limit: 100 });
    expect(rows.reduce((n, r) => n + r.failed, 0)).toBe(statuses.filter((s) => s === 401).length);
    expect(rows.reduce((n, r) => n + r.failed + r.refused, 0)).toBe(20);
  }, 60_000);
});

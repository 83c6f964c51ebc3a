// The whole hostile-input table (test/reliability/bad-input-table.ts: every route of every family x
// every kind of garbage) on the PostgreSQL store, as the SQLite sweep runs it: no 500, no stack
// trace, each family's own error shape. Issue 27 asks for the sweep on both stores.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Gateway } from "../../src/core/gateway.ts";
import { buildApp } from "../../src/server/app.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import type { PostgresStore } from "../../src/store/postgres/index.ts";
import { SECRET } from "../helpers.ts";
import { PAYLOADS, ROUTES, sweep } from "../reliability/bad-input-table.ts";
import { type PgCluster, startCluster, withPostgres } from "./cluster.ts";

withPostgres(() => {
  let cluster: PgCluster | null = null;
  let gw: Gateway;
  beforeAll(async () => {
    cluster = await startCluster();
    gw = openGateway({ db: await cluster.createDatabase("bad_input") });
    await (gw.store as PostgresStore).ready;
    await gw.store.addMerchant({ pid: 1001, name: "Shop", secret: SECRET, now: gw.clock.now() });
    await gw.store.addChannel({ pid: 1001, payType: "alipay", code: "alipay_qr", name: "A", qrcode: "https://qr.alipay.com/x", now: gw.clock.now() });
    await gw.store.setSetting("public_rate_limit", "0");
    await gw.store.addKeyedClient({ kind: "smsforwarder", pid: 1001, name: "phone", key: "phone-key-0123456789", accountIds: [], now: gw.clock.now() });
  }, 120_000);
  afterAll(async () => {
    await (gw?.store as PostgresStore | undefined)?.end();
    cluster?.stop();
  });

  test(`${ROUTES.length} routes x ${PAYLOADS.length} payloads on PostgreSQL: no 500, no stack trace, the family's shape`, async () => {
    const app = buildApp(gw);
    const { failures, sent } = await sweep((r) => app.handle(r));
    expect(failures).toEqual([]);
    expect(sent).toBe(ROUTES.length * PAYLOADS.length);
  }, 120_000);
});

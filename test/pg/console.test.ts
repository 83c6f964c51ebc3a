// The operator console on a PostgreSQL store (issue 20): every page a browser opens answers 200 from
// the store's real data, and the audited actions (close, 补单, assign an unmatched report, settings,
// merchant disable) change the database as on SQLite. The pages call the same core and sub-ports
// on both stores, so one walk through them is what proves the PostgreSQL side of every sub-port a
// page reads (stats, browse, slots, devices, rules, alerts, admin).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SESSION_COOKIE } from "../../src/admin/guard.ts";
import { CLI_ACTOR } from "../../src/core/admin/audit.ts";
import { addOperator } from "../../src/core/admin/operators.ts";
import { csrfToken, startSession } from "../../src/core/admin/sessions.ts";
import type { Gateway } from "../../src/core/gateway.ts";
import { buildApp } from "../../src/server/app.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import type { PostgresStore } from "../../src/store/postgres/index.ts";
import { nativeCreate, SECRET, signed } from "../helpers.ts";
import { type PgCluster, startCluster, withPostgres } from "./cluster.ts";

const ORIGIN = "http://localhost";

withPostgres(() => {
  let cluster: PgCluster | null = null;
  let gw: Gateway;
  let app: ReturnType<typeof buildApp>;
  let cookie = "";
  let csrf = "";

  const call = (path: string, init: RequestInit = {}) => app.handle(new Request(`${ORIGIN}${path}`, init));
  const postJson = async (path: string, body: Record<string, string>) =>
    (await call(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then((r) => r.json())) as any;
  const page = async (path: string) => {
    const res = await call(path, { headers: { cookie } });
    return { status: res.status, html: await res.text() };
  };
  const post = (path: string, form: Record<string, string>) =>
    call(path, {
      method: "POST",
      headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded", "hx-request": "true" },
      body: new URLSearchParams({ ...form, _csrf: csrf }).toString(),
    });
  const create = async (money: string) => {
    const r = await postJson("/xpay/order/create", nativeCreate({ money, notify_url: "http://127.0.0.1:9/n" }));
    expect(r.code).toBe(200);
    return r.data as { trade_no: string; trade_amount: string };
  };
  const amountReport = (cents: number) =>
    postJson("/api/report/1001/pc", signed({ timestamp: Math.floor(Date.now() / 1000), amount: cents, pay_type: "alipay", channel_code: "alipay_qr" }));

  beforeAll(async () => {
    cluster = await startCluster();
    const url = await cluster.createDatabase("console");
    gw = openGateway({ db: url });
    await (gw.store as PostgresStore).ready;
    app = buildApp(gw);
    await gw.store.addMerchant({ pid: 1001, name: "Shop <b>", secret: SECRET, now: gw.clock.now() });
    await gw.store.addChannel({ pid: 1001, payType: "alipay", code: "alipay_qr", name: "Alipay A", qrcode: "https://qr.alipay.com/fkx0001", now: gw.clock.now() });
    const added = await addOperator(gw, CLI_ACTOR, "alice", "correct horse battery");
    if (added.kind !== "added") throw new Error(added.kind);
    const { token } = await startSession(gw, added.operator, { ip: "127.0.0.1", userAgent: "bun-test" });
    cookie = `${SESSION_COOKIE}=${token}`;
    csrf = csrfToken(token);
  }, 120_000);

  afterAll(async () => {
    await (gw?.store as PostgresStore | undefined)?.end();
    cluster?.stop();
  });

  test("every console page answers from PostgreSQL, and the audited actions change the database", async () => {
    const paid = await create("10.00");
    const pending = await create("20.00");
    const toClose = await create("30.00");
    const byHand = await create("40.00");
    const report = await amountReport(Math.round(Number(paid.trade_amount) * 100));
    expect(report.data.outcome).toBe("matched");
    const stray = await amountReport(1234); // no order of 12.34: unmatched money
    expect(stray.data.outcome).toBe("unmatched");
    expect((await postJson("/api/report/1001/heart", signed({ client_name: "shop-phone", timestamp: Math.floor(Date.now() / 1000) }))).code).toBe(200);
    const client = (await gw.store.listClients())[0]!;

    const pages: [string, string[]][] = [
      ["/admin", ["10.00"]],
      ["/admin/orders", [paid.trade_no, pending.trade_no]],
      [`/admin/orders/${paid.trade_no}`, [paid.trade_no]],
      ["/admin/reports", ["12.34"]],
      [`/admin/reports/${stray.data.report_id}`, ['id="assign-form"', pending.trade_no]],
      ["/admin/merchants", ["Shop &lt;b&gt;"]],
      ["/admin/accounts", ["Alipay A"]],
      ["/admin/accounts/1", ["Alipay A"]],
      ["/admin/accounts/1/slots", [pending.trade_no, pending.trade_amount]],
      ["/admin/clients", [client.name]],
      [`/admin/clients/${client.id}`, [client.name]],
      ["/admin/clients/setup", ["1001"]],
      ["/admin/settings", ["order_ttl"]],
      ["/admin/audit", []],
      ["/admin/sessions", ["bun-test"]],
    ];
    for (const [path, expected] of pages) {
      const { status, html } = await page(path);
      expect({ path, status }).toEqual({ path, status: 200 });
      expect(html).not.toContain("not supported on PostgreSQL");
      for (const text of expected) expect({ path, has: html.includes(text) ? text : `missing ${text}` }).toEqual({ path, has: text });
    }

    // Actions, each through the same core function as on SQLite, each audited.
    expect((await post(`/admin/orders/${toClose.trade_no}/close`, {})).status).toBe(200);
    expect((await gw.store.getOrder(toClose.trade_no))?.status).toBe(3);
    expect((await post(`/admin/orders/${byHand.trade_no}/confirm`, { reason: "paid at the counter" })).status).toBe(200);
    expect((await gw.store.getOrder(byHand.trade_no))?.status).toBe(2);
    expect((await post(`/admin/reports/${stray.data.report_id}/assign`, { trade_no: pending.trade_no, reason: "payer sent 12.34" })).status).toBe(200);
    expect((await gw.store.getOrder(pending.trade_no))?.status).toBe(2);
    expect((await gw.store.getNotification(pending.trade_no))?.status).toBe("pending");
    // Keyed clients: added by the setup page's form, bound on its page (the report groups are
    // recomputed on PostgreSQL too), shown as the account's watcher, then removed.
    expect((await post("/admin/clients/setup/add", { pid: "0", kind: "smsforwarder", name: "till-pg" })).status).toBe(200);
    const till = (await gw.store.listKeyedClients()).find((c) => c.name === "till-pg")!;
    const tillPage = (await gw.store.listClients()).find((c) => c.name === "till-pg")!.id;
    expect((await page("/admin/clients/setup?pid=0")).html).toContain(`id="sms-${till.id}"`);
    expect((await post(`/admin/clients/${tillPage}/bind`, { account: "1" })).status).toBe(303);
    expect((await gw.store.getKeyedClient(till.id))?.accountIds).toEqual([1]);
    expect((await page("/admin/accounts")).html).toContain(`<a href="/admin/clients/${tillPage}">till-pg</a>`);
    expect((await page(`/admin/clients/${tillPage}`)).html).toContain("已绑定 1 个账户。");
    expect((await post(`/admin/clients/${tillPage}/remove`, {})).status).toBe(303);
    expect(await gw.store.getKeyedClient(till.id)).toBeNull();
    expect((await post("/admin/merchants/1001/disable", {})).status).toBeLessThan(400);
    expect((await gw.store.getMerchant(1001))?.active).toBe(false);
    const audit = await page("/admin/audit");
    for (const action of ["order.close", "order.confirm", "report.assign", "merchant.disable", "client.add", "client.bind", "client.remove"]) expect(audit.html).toContain(action);

    // The dashboard counts what happened: three paid orders (report, 补单, assignment).
    const dash = await page("/admin");
    expect(dash.status).toBe(200);
    const stats = await gw.store.stats.incomeByAccount({ from: 0, to: Math.floor(Date.now() / 1000) + 60 });
    expect(stats.reduce((n, r) => n + r.paidCount, 0)).toBe(3);
  }, 60_000);
});

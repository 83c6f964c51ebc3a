// The report API's message path on PostgreSQL (issue 20): a payment notification in a wording no
// rule knows is kept and counted in the rules sub-port's table, an operator rule added from
// another gateway (as the CLI beside a server) pays the same notification re-sent once the
// server's one-second rules cache has passed, and the paying report sent again is a duplicate.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { CLI_ACTOR } from "../../src/core/admin/audit.ts";
import type { Gateway } from "../../src/core/gateway.ts";
import { addRule } from "../../src/core/rules/manage.ts";
import { buildApp } from "../../src/server/app.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import type { PostgresStore } from "../../src/store/postgres/index.ts";
import { nativeCreate, SECRET, signed } from "../helpers.ts";
import { type PgCluster, startCluster, withPostgres } from "./cluster.ts";

const A = String.raw`(?<amount>\d+(?:\.\d{1,2})?)`;

withPostgres(() => {
  let cluster: PgCluster | null = null;
  let url = "";
  let gw: Gateway;
  let app: ReturnType<typeof buildApp>;
  const post = async (path: string, body: Record<string, string>) =>
    (await (await app.handle(new Request(`http://localhost${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }))).json()) as any;

  beforeAll(async () => {
    cluster = await startCluster();
    url = await cluster.createDatabase("messages");
    gw = openGateway({ db: url });
    await (gw.store as PostgresStore).ready;
    app = buildApp(gw);
    await gw.store.addMerchant({ pid: 1001, name: "Shop", secret: SECRET, now: gw.clock.now() });
    await gw.store.addChannel({ pid: 1001, payType: "wxpay", code: "wx", name: "WeChat", qrcode: "https://example.com/wx", now: gw.clock.now() });
  }, 120_000);
  afterAll(async () => {
    await (gw?.store as PostgresStore | undefined)?.end();
    cluster?.stop();
  });

  test("an unknown wording is kept; a rule added beside the server pays its re-send; the paying report again is a duplicate", async () => {
    const order = await post("/xpay/order/create", nativeCreate({ pay_type: "wxpay", money: "13.22" }));
    expect(order.code).toBe(200);
    const tradeNo = order.data.trade_no as string;
    const content = JSON.stringify({ from: "com.tencent.mm", package_name: "com.tencent.mm", app_name: "微信", title: "微信支付", msg: "收款到账13.22元，来自张三", receive_time: "2026-11-23 13:14:15", device_name: "shop-phone" });
    const send = () => post("/api/report/1001", signed({ from: "shop-phone", content, timestamp: Math.floor(Date.now() / 1000) }));

    expect((await send()).data.outcome).toBe("unmatched");
    expect((await send()).data.outcome).toBe("unmatched");
    expect(await gw.store.rules.listUnparsed({})).toEqual([expect.objectContaining({ pid: 1001, text: "收款到账13.22元，来自张三", count: 2 })]);

    const cli = openGateway({ db: url });
    expect(await addRule(cli, CLI_ACTOR, { pkg: "com.tencent.mm", titles: ["微信支付"], text: `^收款到账${A}元，来自.{1,20}$`, payType: "wxpay" })).toMatchObject({ ok: true });
    await (cli.store as PostgresStore).end();

    await Bun.sleep(1100); // the server reads the rules at most once a second
    const paid = await send();
    expect(paid.data).toMatchObject({ outcome: "matched", trade_no: tradeNo });
    expect((await gw.store.getOrder(tradeNo))?.status).toBe(2);
    expect(await gw.store.rules.listUnparsed({})).toEqual([]);
    expect((await send()).data.outcome).toBe("duplicate");
  }, 30_000);
});

// V免签 on PostgreSQL (issue 20), driven as its two callers drive it (test/vmq/clients.ts): the
// monitor app's heartbeat, dujiaoka's createOrder, the app's push and its forced re-send, and the
// notification delivered to a real local receiver whose md5 check (dujiaoka's) accepts it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Gateway } from "../../src/core/gateway.ts";
import { deliverDue } from "../../src/core/notify/deliver.ts";
import { buildApp } from "../../src/server/app.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import type { PostgresStore } from "../../src/store/postgres/index.ts";
import { SECRET } from "../helpers.ts";
import { type Receiver, startReceiver } from "../notify/receiver.ts";
import { appHeartUrl, appPushUrl, dujiaokaAccepts, dujiaokaCreateUrl, KEY } from "../vmq/clients.ts";
import { type PgCluster, startCluster, withPostgres } from "./cluster.ts";

withPostgres(() => {
  let cluster: PgCluster | null = null;
  let gw: Gateway;
  let app: ReturnType<typeof buildApp>;
  let rx: Receiver;
  const get = async (url: string) => {
    const res = await app.handle(new Request(url));
    const text = await res.text();
    return { res, status: res.status, body: text.startsWith("{") ? JSON.parse(text) : null };
  };

  beforeAll(async () => {
    cluster = await startCluster();
    gw = openGateway({ db: await cluster.createDatabase("vmq") });
    await (gw.store as PostgresStore).ready;
    app = buildApp(gw);
    const now = gw.clock.now();
    await gw.store.addMerchant({ pid: 1001, name: "Shop", secret: SECRET, now });
    await gw.store.addChannel({ pid: 0, payType: "alipay", code: "alipay_qr", name: "Alipay A", qrcode: "https://qr.alipay.com/fkx0001", now });
    const added = await gw.store.addKeyedClient({ kind: "vmq", pid: 1001, name: "phone1", key: KEY, accountIds: [], now });
    if (added.kind !== "added") throw new Error(added.reason);
    rx = startReceiver(["success"]);
    // The operator's word on where this merchant's V免签 orders go (the link's URLs are unsigned).
    await gw.store.updateMerchant(1001, { settings: { vmq_notify_url: rx.url, vmq_url_hosts: "shop.test" } });
  }, 120_000);
  afterAll(async () => {
    rx?.stop();
    await (gw?.store as PostgresStore | undefined)?.end();
    cluster?.stop();
  });

  test("heartbeat, createOrder, push, a forced re-send, and the notification dujiaoka accepts", async () => {
    const t = () => String(Date.now());
    expect((await get(appHeartUrl(t()))).body).toEqual({ code: 1, msg: "成功", data: null });
    expect((await gw.store.listClients()).find((c) => c.kind === "vmq")).toMatchObject({ pid: 1001, name: "phone1" });

    const created = await get(dujiaokaCreateUrl("http://localhost/", { orderSn: "DJK-PG1", actualPrice: 10, type: 2, notifyUrl: rx.url }));
    expect(created.status).toBe(302);
    const orderId = created.res.headers.get("location")!.slice(-20);
    expect((await get(`http://localhost/getOrder?orderId=${orderId}`)).body).toMatchObject({ code: 1, data: { orderId, reallyPrice: "10.00", state: 0 } });

    const push = appPushUrl(t(), 2, 10);
    expect((await get(push)).body).toMatchObject({ code: 1, data: { outcome: "matched", orderId } });
    expect((await get(`${push}&force_push=true`)).body).toMatchObject({ code: 1, data: { outcome: "duplicate" } });
    expect((await get(`http://localhost/checkOrder?orderId=${orderId}`)).body.code).toBe(1);

    await deliverDue(gw);
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0]!.params).toMatchObject({ param: "DJK-PG1", reallyPrice: "10.00" });
    expect(dujiaokaAccepts(rx.received[0]!.params)).toBe(true);
    expect((await gw.store.getNotification(orderId))?.status).toBe("delivered");
  }, 30_000);
});

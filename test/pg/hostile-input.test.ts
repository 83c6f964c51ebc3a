// Input a stranger controls, on the PostgreSQL store (issue 20 review): PostgreSQL's text cannot
// hold a NUL character, so a NUL that reached an insert or a lookup was a 500 there (SQLite stores
// it). Every family now refuses a parameter holding one in its own error shape, as the console
// refuses a form or query holding one; oversized numbers are refused as before. Nothing here may
// answer 500.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SESSION_COOKIE } from "../../src/admin/guard.ts";
import { CLI_ACTOR } from "../../src/core/admin/audit.ts";
import { addOperator } from "../../src/core/admin/operators.ts";
import { startSession } from "../../src/core/admin/sessions.ts";
import type { Gateway } from "../../src/core/gateway.ts";
import { buildApp } from "../../src/server/app.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import type { PostgresStore } from "../../src/store/postgres/index.ts";
import { nativeCreate, SECRET, signed } from "../helpers.ts";
import { type PgCluster, startCluster, withPostgres } from "./cluster.ts";

withPostgres(() => {
  let cluster: PgCluster | null = null;
  let gw: Gateway;
  let app: ReturnType<typeof buildApp>;
  beforeAll(async () => {
    cluster = await startCluster();
    gw = openGateway({ db: await cluster.createDatabase("hostile") });
    await (gw.store as PostgresStore).ready;
    app = buildApp(gw);
    await gw.store.addMerchant({ pid: 1001, name: "Shop", secret: SECRET, now: gw.clock.now() });
    await gw.store.addChannel({ pid: 0, payType: "alipay", code: "alipay_qr", name: "A", qrcode: "https://qr.alipay.com/x", now: gw.clock.now() });
  }, 120_000);
  afterAll(async () => {
    await (gw?.store as PostgresStore | undefined)?.end();
    cluster?.stop();
  });

  const json = (path: string, body: Record<string, string>) =>
    new Request(`http://localhost${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const ts = () => Math.floor(Date.now() / 1000);
  const big = "99999999999999999999";

  test("a NUL in any family's parameter is refused in that family's shape; nothing answers 500", async () => {
    const cases: [string, () => Request, RegExp][] = [
      ["native create, name", () => json("/xpay/order/create", nativeCreate({ name: "a\u0000b" })), /"code":400,"msg":"a parameter contains a NUL character"/],
      ["native create, a NUL in a parameter name", () => json("/xpay/order/create", { ...nativeCreate(), "x\u0000": "1" }), /NUL character/],
      ["heartbeat, client_name", () => new Request(`http://localhost/api/report/1001/heart?${new URLSearchParams(signed({ client_name: "p\u0000q", timestamp: ts() }))}`), /"code":400,"message":"a parameter contains a NUL character"/],
      ["amount report, remark", () => json("/api/report/1001/pc", signed({ amount: 1000, pay_type: "alipay", channel_code: "alipay_qr", remark: "a\u0000", timestamp: ts() })), /NUL character/],
      ["epay V1 api.php, out_trade_no", () => new Request(`http://localhost/xpay/epay/api.php?act=order&pid=1001&key=${SECRET}&out_trade_no=a%00b`), /"code":-1,"msg":"a parameter contains a NUL character"/],
      ["template API status", () => new Request("http://localhost/api/order/status", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "order_id=a%00b" }), /NUL character/],
      ["V免签 getOrder", () => new Request("http://localhost/getOrder?orderId=a%00b"), /"code":-1/],
      ["an oversized pid", () => json("/xpay/order/create", nativeCreate({ pid: big })), /invalid parameter pid/],
      ["an oversized channel_id", () => new Request(`http://localhost/api/report/1001/heart?${new URLSearchParams(signed({ client_name: "p", channel_id: big, timestamp: ts() }))}`), /invalid parameter channel_id/],
    ];
    for (const [name, request, shape] of cases) {
      const res = await app.handle(request());
      const text = await res.text();
      expect({ name, status: res.status < 500, shape: shape.test(text) ? "ok" : text.slice(0, 120) }).toEqual({ name, status: true, shape: "ok" });
    }
    expect(await gw.store.listClients()).toEqual([]); // nothing was stored for the refused heartbeat
  });

  test("the SmsForwarder route: a NUL, garbage content, an oversized or stale timestamp, an unknown id: 4xx in the report shape", async () => {
    const added = await gw.store.addKeyedClient({ kind: "smsforwarder", pid: 1001, name: "phone", key: "phone-key-0123456789", accountIds: [], now: gw.clock.now() });
    if (added.kind !== "added") throw new Error(added.reason);
    const id = added.client.id;
    const form = (path: string, body: string) => new Request(`http://localhost${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
    const ms = String(Date.now());
    const cases: [string, Request, number][] = [
      ["a NUL in content", form(`/api/report/smsforwarder/${id}`, `from=x&content=a%00b&timestamp=${ms}&sign=x`), 400],
      ["content not the template", form(`/api/report/smsforwarder/${id}`, `from=x&content=${encodeURIComponent("x\ny")}&timestamp=${ms}&sign=x`), 400],
      ["an oversized timestamp", form(`/api/report/smsforwarder/${id}`, `from=x&content=y&timestamp=${big}&sign=x`), 400],
      ["a stale timestamp", form(`/api/report/smsforwarder/${id}`, `from=x&content=${encodeURIComponent("p\nt\nti\nUID：1\n2026-01-01 00:00:00")}&timestamp=1000000000000&sign=x`), 400],
      ["an unknown id", form("/api/report/smsforwarder/99999999999", `from=x&content=y&timestamp=${ms}&sign=x`), 401],
      ["an id with a NUL", form("/api/report/smsforwarder/1%00", `from=x&content=y&timestamp=${ms}&sign=x`), 401],
      ["a JSON array", new Request(`http://localhost/api/report/smsforwarder/${id}`, { method: "POST", headers: { "content-type": "application/json" }, body: "[1,2]" }), 400],
    ];
    for (const [name, request, status] of cases) {
      const res = await app.handle(request);
      const body = (await res.json()) as { code: number; message: string; data: unknown };
      expect({ name, status: res.status, code: body.code, data: body.data }).toEqual({ name, status, code: status, data: null });
    }
  });

  test("the console refuses a NUL in a form or a query with a 400, before any lookup, logged in or not", async () => {
    const login = await app.handle(new Request("http://localhost/admin/login", {
      method: "POST", headers: { origin: "http://localhost", "content-type": "application/x-www-form-urlencoded" }, body: "user=ad%00min&password=x",
    }));
    expect(login.status).toBe(400);
    const added = await addOperator(gw, CLI_ACTOR, "alice", "correct horse battery");
    if (added.kind !== "added") throw new Error(added.kind);
    const { token } = await startSession(gw, added.operator, { ip: "127.0.0.1", userAgent: "bun-test" });
    const search = await app.handle(new Request("http://localhost/admin/orders?q=a%00b", { headers: { cookie: `${SESSION_COOKIE}=${token}` } }));
    expect(search.status).toBe(400);
    expect(await search.text()).toContain("NUL");
  });
});

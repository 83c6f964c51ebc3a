// Bad input on every route of every family: never a 500, never a stack trace, always the family's
// own error shape. Table-driven (bad-input-table.ts: ROUTES x PAYLOADS), through app.handle, plus
// the 1 MB body through a real listening server (app.handle bypasses Bun's maxRequestBodySize).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type RunningServer } from "../../src/server/serve.ts";
import { type Harness, harness, nativeCreate, seed, signed } from "../helpers.ts";
import { v1Params } from "../epay-v1/sdk.ts";
import { hashParams } from "../hashpay/sdk.ts";
import { form, jsonType, leaks, MB, PAYLOADS, ROUTES, shapeOk, sweep } from "./bad-input-table.ts";

let h: Harness;
beforeAll(async () => {
  h = harness();
  await seed(h);
  await h.gw.store.setSetting("public_rate_limit", "0");
  // SmsForwarder client 1: its route reads every payload past the id.
  await h.gw.store.addKeyedClient({ kind: "smsforwarder", pid: 1001, name: "phone", key: "phone-key-0123456789", accountIds: [], now: h.clock.now() });
});
afterAll(() => h.close());

describe("bad input: every route x every payload", () => {
  test(`${ROUTES.length} routes x ${PAYLOADS.length} payloads: no 500, no stack trace, the family's shape`, async () => {
    const { failures, sent } = await sweep((r) => h.app.handle(r));
    expect(failures).toEqual([]);
    expect(sent).toBe(ROUTES.length * PAYLOADS.length);
  });

  test("signed requests with bad amounts are refused in the family's shape", async () => {
    const amounts = ["-10.00", "0", "0.001", "10.5.0", "1e3", "99999999999.99", "NaN", "Infinity", " 10.00", "10,00", "0x10"];
    for (const money of amounts) {
      const native = await h.app.handle(new Request("http://localhost/xpay/order/create", { method: "POST", headers: { "content-type": form }, body: new URLSearchParams(nativeCreate({ money })) }));
      const nb = (await native.json()) as any;
      expect(nb.code).not.toBe(200);
      expect(typeof nb.msg).toBe("string");
      const v1 = await h.app.handle(new Request("http://localhost/xpay/epay/mapi.php", { method: "POST", headers: { "content-type": form }, body: new URLSearchParams(v1Params({ money })) }));
      const vb = (await v1.json()) as any;
      expect(vb.code).toBe(-1);
      const hash = await h.app.handle(new Request("http://localhost/xpay/hashpay/payment/do.html", { method: "POST", headers: { "content-type": form }, body: JSON.stringify(hashParams(h, { total_fee: money })) }));
      const hb = (await hash.json()) as any;
      expect(hb.errcode).not.toBe(0);
      for (const amount of ["-1000", "10.5", "1e309", "99999999999999999999", "abc"]) {
        const rep = signed({ timestamp: h.clock.now(), amount, pay_type: "alipay", channel_code: "alipay_qr" });
        const res = await h.app.handle(new Request("http://localhost/api/report/1001/pc", { method: "POST", headers: { "content-type": jsonType }, body: JSON.stringify(rep) }));
        expect(res.status).toBeLessThan(500);
        const rb = (await res.json()) as any;
        expect(rb.code).not.toBe(200);
        expect(typeof rb.message).toBe("string");
      }
    }
  });

  test("/pay/:trade_no with hostile ids answers HTML, never a 500", async () => {
    for (const id of ["x", "%3Cscript%3E", "'%20OR%201=1--", "a".repeat(5000), "%FF%FE", "..%2F..%2Fetc%2Fpasswd"]) {
      const res = await h.app.handle(new Request(`http://localhost/pay/${id}`));
      const text = await res.text();
      expect(res.status).toBeLessThan(500);
      expect(leaks(text)).toBe(false);
      expect(text).not.toContain("<script>");
    }
  });
});

describe("bad input through a real listening server", () => {
  let server: RunningServer;
  let g: Harness;
  beforeAll(async () => {
    g = harness();
    await seed(g);
    server = await startServer(g.gw, { port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await Promise.race([server.stop(), Bun.sleep(1000)]);
    g.close();
  });

  test("a 1 MB body on every POST route is refused in the family's shape (not Bun's 413, not a 500)", async () => {
    const failures: string[] = [];
    for (const r of ROUTES.filter((x) => x.method === "POST")) {
      const res = await fetch(`${server.url}${r.path}`, { method: "POST", headers: { "content-type": form, connection: "close" }, body: MB });
      const text = await res.text();
      const where = `${r.path} -> ${res.status}`;
      if (res.status >= 500 || leaks(text)) failures.push(`${where}: ${text.slice(0, 200)}`);
      else {
        const bad = shapeOk(r.shape, res.headers.get("content-type") ?? "", text);
        if (bad) failures.push(`${where}: ${bad}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

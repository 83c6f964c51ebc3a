// The families of `xpay dev` as a merchant developer uses them (issue 19), written once and run on
// each store: test/dev/process.test.ts on the SQLite file `xpay dev` makes, test/pg/dev-families
// on a PostgreSQL database (issue 20). One real process on a free port; its quick start is read
// from stdout; an order is created through every family with the printed credentials (the V2 key
// files from the printed folder), paid with POST /dev/orders/{no}/pay, and the notification that
// reaches a local listener is verified by the merchant's rules, written independently of the
// gateway's code (verify.ts).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { ROOT, startDev, startHooks, type DevProcess, type HookServer } from "./dev-process.ts";
import { md5, md5Rule, paramsOf, rsaSignParams, rsaVerifyParams } from "./verify.ts";

/** `args`: the command line after the program (["dev", "--port", "0"], or with --db first). */
export function devFamilies(args: () => Promise<string[]>, o: { sqliteFile: boolean }): void {
  let dev: DevProcess;
  let hooks: HookServer;

  beforeAll(async () => {
    hooks = startHooks();
    dev = await startDev(await args());
  }, 120_000);

  afterAll(async () => {
    expect(await dev?.stop("SIGTERM")).toBe(0); // and its temporary folder is removed
    hooks?.stop();
  });

  const form = (params: Record<string, string>) => ({ method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(params).toString() });
  const now = () => String(Math.floor(Date.now() / 1000));

  async function pay(tradeNo: string, payType?: string) {
    const res = await fetch(`${dev.base}/dev/orders/${tradeNo}/pay${payType ? `?pay_type=${payType}` : ""}`, { method: "POST" });
    const body = (await res.json()) as { code: number; message: string; data: { status: number; notification_queued: boolean } };
    expect({ http: res.status, code: body.code, message: body.message, status: body.data.status }).toEqual({ http: 200, code: 200, message: "success", status: 2 });
    return body;
  }

  async function statusOf(tradeNo: string): Promise<number> {
    const res = await fetch(`${dev.base}/api/order/status`, form({ order_id: tradeNo }));
    return Number(((await res.json()) as { status: number }).status);
  }

  describe("xpay dev: the quick start", () => {
    test("prints the fixed test merchant, the key folder, every family's base URL and how to pay", () => {
      const out = dev.out();
      expect(dev.pid).toBe("1001");
      expect(dev.secret).toBe("a1b2c3d4e5f60718293a4b5c6d7e8f90");
      expect(dev.vmqKey).toBe("4b5a3c2d1e0f9a8b7c6d5e4f3a2b1c0d");
      for (const path of ["/xpay/", "/xpay/epay/", "/xpay/epayn/", "/xpay/hashpay/", "/api/order/", "/api/report/1001"]) expect(out).toContain(`${dev.base}${path}`);
      expect(out).toMatch(/V免签\s+http:\/\/127\.0\.0\.1:\d+\/\n/);
      expect(out).toContain("alipay alipay_qr, wxpay wxpay_qr, qqpay qqpay_qr");
      expect(out).toContain(`${dev.base}/pay/TRADE_NO`);
      expect(out).toContain("1 s, 2 s, 5 s, 10 s");
      for (const f of ["merchant_private_key.pem", "merchant_private_key.txt", "platform_public_key.pem", "platform_public_key.txt"]) expect(existsSync(`${dev.keysDir}/${f}`)).toBe(true);
      if (o.sqliteFile) expect(existsSync(dev.db)).toBe(true);
    });

    test("the printed curl creates an order in a shell, and the printed pay line pays it", async () => {
      const created = Bun.spawnSync(["bash", "-c", dev.curl]);
      const answer = JSON.parse(created.stdout.toString()) as { code: number; data: { trade_no: string; amount: string } };
      expect(answer.code).toBe(200);
      expect(answer.data.amount).toBe("1.00");
      const paid = Bun.spawnSync(["bash", "-c", dev.payLine.replace("TRADE_NO", answer.data.trade_no)]);
      expect(JSON.parse(paid.stdout.toString())).toMatchObject({ code: 200, data: { trade_no: answer.data.trade_no, status: 2, outcome: "matched" } });
    });
  });

  describe("xpay dev: an order through each family, paid by POST /dev/.../pay, notified and verified", () => {
    test("native: POST notification, MD5 rule with the printed AppSecret", async () => {
      const params: Record<string, string> = { pid: dev.pid, pay_type: "alipay", name: "VIP", money: "10.00", out_trade_no: "N-1", notify_url: hooks.url("/native") };
      params.sign = md5Rule(params, dev.secret, ["sign"]);
      const created = (await (await fetch(`${dev.base}/xpay/order/create`, form(params))).json()) as { code: number; data: { trade_no: string } };
      expect(created.code).toBe(200);
      await pay(created.data.trade_no);
      const [n] = await hooks.waitFor("/native", 1);
      expect(n!.method).toBe("POST");
      const got = paramsOf(n!.body);
      expect(got).toMatchObject({ pid: "1001", trade_no: created.data.trade_no, out_trade_no: "N-1", amount: "1000", status: "2" });
      expect(got.sign).toBe(md5Rule(got, dev.secret, ["sign"]));
    });

    test("epay V1: mapi.php and submit.php; GET notification, MD5 rule", async () => {
      const mapi: Record<string, string> = { pid: dev.pid, type: "alipay", out_trade_no: "V1-1", notify_url: hooks.url("/v1"), name: "VIP", money: "2.00" };
      mapi.sign = md5Rule(mapi, dev.secret, ["sign", "sign_type"]);
      const m = (await (await fetch(`${dev.base}/xpay/epay/mapi.php`, form({ ...mapi, sign_type: "MD5" }))).json()) as { code: number; trade_no: string };
      expect(m.code).toBe(1);
      const submit: Record<string, string> = { pid: dev.pid, type: "wxpay", out_trade_no: "V1-2", notify_url: hooks.url("/v1"), return_url: "https://shop.example.com/return", name: "VIP", money: "3.00" };
      submit.sign = md5Rule(submit, dev.secret, ["sign", "sign_type"]);
      const s = await fetch(`${dev.base}/xpay/epay/submit.php?${new URLSearchParams({ ...submit, sign_type: "MD5" })}`, { redirect: "manual" });
      expect(s.status).toBe(302);
      const submitted = /\/pay\/(\d{20})$/.exec(s.headers.get("location")!)![1]!;
      await pay(m.trade_no);
      await pay(submitted);
      const got = (await hooks.waitFor("/v1", 2)).map((n) => Object.fromEntries(n.query));
      for (const q of got) {
        expect(q.trade_status).toBe("TRADE_SUCCESS");
        expect(q.sign).toBe(md5Rule(q, dev.secret, ["sign", "sign_type"]));
      }
      expect(got.map((q) => q.out_trade_no).sort()).toEqual(["V1-1", "V1-2"]);
    });

    test("epay V2: RSA with the printed key folder; the answer and the notification verify with the platform public key", async () => {
      const merchantKey = readFileSync(`${dev.keysDir}/merchant_private_key.pem`, "utf8");
      const platformKey = readFileSync(`${dev.keysDir}/platform_public_key.pem`, "utf8");
      const params: Record<string, string> = { pid: dev.pid, type: "qqpay", out_trade_no: "V2-1", notify_url: hooks.url("/v2"), name: "VIP", money: "3.00", timestamp: now() };
      params.sign = rsaSignParams(params, merchantKey);
      params.sign_type = "RSA";
      const answer = (await (await fetch(`${dev.base}/xpay/epayn/api/pay/create`, form(params))).json()) as Record<string, unknown>;
      expect(answer.code).toBe(0);
      const flat = Object.fromEntries(Object.entries(answer).map(([k, v]) => [k, String(v)]));
      expect(rsaVerifyParams(flat, platformKey)).toBe(true);
      await pay(flat.trade_no!);
      const [n] = await hooks.waitFor("/v2", 1);
      const q = Object.fromEntries(n!.query);
      expect(q).toMatchObject({ pid: "1001", out_trade_no: "V2-1", trade_status: "TRADE_SUCCESS", money: "3.00", sign_type: "RSA" });
      expect(rsaVerifyParams(q, platformKey)).toBe(true);
      expect(rsaVerifyParams({ ...q, money: "30.00" }, platformKey)).toBe(false); // the check can fail
      // The SDKs' bare Base64 forms hold the same keys.
      expect(readFileSync(`${dev.keysDir}/platform_public_key.txt`, "utf8").trim()).toBe(platformKey.replace(/-----[^-]+-----|\s/g, ""));
    });

    test("hash protocol: POST notification, hash by the MD5 rule", async () => {
      const params: Record<string, string> = { version: "1.1", appid: dev.pid, trade_order_id: "H-1", total_fee: "4.00", title: "VIP", time: now(), notify_url: hooks.url("/hash"), nonce_str: "n0nce42", payment: "alipay" };
      params.hash = md5Rule(params, dev.secret, ["hash"]);
      const created = (await (await fetch(`${dev.base}/xpay/hashpay/payment/do.html`, form(params))).json()) as { errcode: string; oderid: string };
      expect(created.errcode).toBe("0");
      await pay(created.oderid);
      const [n] = await hooks.waitFor("/hash", 1);
      const got = paramsOf(n!.body);
      expect(got).toMatchObject({ trade_order_id: "H-1", status: "OD", total_fee: "4.00", appid: "1001" });
      expect(got.hash).toBe(md5Rule(got, dev.secret, ["hash"]));
    });

    test("V免签 createOrder with the printed key: GET notification, md5(payId+param+type+price+reallyPrice+key)", async () => {
      // The link's notifyUrl is unsigned: the operator configures it for the merchant (CLI on the dev database).
      const set = Bun.spawnSync([process.execPath, "src/cli/main.ts", "--db", dev.db, "merchant", "set", dev.pid, "--setting", `vmq_notify_url=${hooks.url("/vmq")}`], { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" } });
      expect({ code: set.exitCode, err: set.stderr.toString() }).toEqual({ code: 0, err: "" });
      await Bun.sleep(1100); // a running server sees another process's merchant change within a second
      const p = { payId: "VMQ-1", param: "SHOP-42", type: "1", price: "10" };
      const sign = md5(p.payId + p.param + p.type + p.price + dev.vmqKey);
      const res = await fetch(`${dev.base}/createOrder?${new URLSearchParams({ ...p, notifyUrl: hooks.url("/vmq"), sign })}`);
      const created = (await res.json()) as { code: number; data: { orderId: string; reallyPrice: string } };
      expect(created.code).toBe(1);
      await pay(created.data.orderId);
      const [n] = await hooks.waitFor("/vmq", 1);
      const q = Object.fromEntries(n!.query);
      expect(q).toMatchObject({ payId: "VMQ-1", param: "SHOP-42", type: "1", price: "10", reallyPrice: created.data.reallyPrice });
      expect(q.sign).toBe(md5(q.payId! + q.param + q.type + q.price + q.reallyPrice + dev.vmqKey));
    });

    test("cashier template API: an order created without a pay type is picked on the template API, then paid", async () => {
      const params: Record<string, string> = { version: "1.1", appid: dev.pid, trade_order_id: "H-2", total_fee: "5.00", title: "VIP", time: now(), notify_url: hooks.url("/picked"), nonce_str: "n0nce43" };
      params.hash = md5Rule(params, dev.secret, ["hash"]);
      const created = (await (await fetch(`${dev.base}/xpay/hashpay/payment/do.html`, form(params))).json()) as { errcode: string; oderid: string };
      const types = (await (await fetch(`${dev.base}/api/order/pay-types`, form({ order_id: created.oderid }))).json()) as { data: { pay_type: string }[] };
      expect(types.data.map((t) => t.pay_type).sort()).toEqual(["alipay", "qqpay", "wxpay"]);
      const picked = (await (await fetch(`${dev.base}/api/order/pay-type`, form({ order_id: created.oderid, pay_type: "wxpay" }))).json()) as { code: number };
      expect(picked.code).toBe(200);
      await pay(created.oderid);
      const [n] = await hooks.waitFor("/picked", 1);
      const got = paramsOf(n!.body);
      expect(got.hash).toBe(md5Rule(got, dev.secret, ["hash"]));
      // /dev/.../pay picks for an order still waiting for the payer: the pay_type given.
      const bare: Record<string, string> = { ...params, trade_order_id: "H-3", notify_url: hooks.url("/picked") };
      delete bare.hash;
      bare.hash = md5Rule(bare, dev.secret, ["hash"]);
      const second = (await (await fetch(`${dev.base}/xpay/hashpay/payment/do.html`, form(bare))).json()) as { oderid: string };
      await pay(second.oderid, "qqpay");
      const info = (await (await fetch(`${dev.base}/api/order/info`, form({ order_id: second.oderid }))).json()) as { pay_type: string; status: number };
      expect(info).toMatchObject({ pay_type: "qqpay", status: 2 });
    });
  });

  describe("xpay dev: retries, failure, expiry, marks", () => {
    test("an endpoint that answers fail first gets the retry within seconds; xpay notify show lists both attempts", async () => {
      hooks.failFirst("/retry", 1);
      const params: Record<string, string> = { pid: dev.pid, pay_type: "alipay", name: "VIP", money: "6.00", out_trade_no: "R-1", notify_url: hooks.url("/retry") };
      params.sign = md5Rule(params, dev.secret, ["sign"]);
      const created = (await (await fetch(`${dev.base}/xpay/order/create`, form(params))).json()) as { data: { trade_no: string } };
      await pay(created.data.trade_no);
      const [first, second] = await hooks.waitFor("/retry", 2, 8000);
      const gap = second!.at - first!.at;
      expect(gap).toBeGreaterThanOrEqual(900); // the first delay is 1 s ...
      expect(gap).toBeLessThan(4000); // ... and the worker polls every second
      // The listener saw the second request before the gateway stored its outcome: ask until it has.
      type Shown = { status: string; attempts: { ack: boolean; body: string }[] };
      let n: Shown = { status: "", attempts: [] };
      for (let i = 0; i < 30 && n.status !== "delivered"; i++) {
        if (i > 0) await Bun.sleep(100);
        const shown = Bun.spawnSync([process.execPath, "src/cli/main.ts", "--db", dev.db, "notify", "show", created.data.trade_no, "--json"], { env: { ...process.env, NO_COLOR: "1" } });
        n = JSON.parse(shown.stdout.toString()) as Shown;
      }
      expect(n.status).toBe("delivered");
      expect(n.attempts.map((a) => [a.ack, a.body])).toEqual([[false, "fail"], [true, "success"]]);
    });

    test("fail: a payment 0.01 too high is stored unmatched; the order stays pending and no notification goes out", async () => {
      const params: Record<string, string> = { pid: dev.pid, pay_type: "alipay", name: "VIP", money: "7.00", out_trade_no: "F-1", notify_url: hooks.url("/failed") };
      params.sign = md5Rule(params, dev.secret, ["sign"]);
      const created = (await (await fetch(`${dev.base}/xpay/order/create`, form(params))).json()) as { data: { trade_no: string } };
      const res = await fetch(`${dev.base}/dev/orders/${created.data.trade_no}/fail`, { method: "POST" });
      const body = (await res.json()) as { data: { outcome: string; reason: string; status: number } };
      expect(body.data).toMatchObject({ outcome: "unmatched", status: 1 });
      expect(body.data.reason).toContain("differs from order");
      expect(await statusOf(created.data.trade_no)).toBe(1);
      await Bun.sleep(1500);
      expect(hooks.received("/failed")).toEqual([]);
    });

    test("expire: the order reads timed out (4) at once; a second expire is refused", async () => {
      const params: Record<string, string> = { pid: dev.pid, pay_type: "wxpay", name: "VIP", money: "8.00", out_trade_no: "E-1" };
      params.sign = md5Rule(params, dev.secret, ["sign"]);
      const created = (await (await fetch(`${dev.base}/xpay/order/create`, form(params))).json()) as { data: { trade_no: string } };
      expect((await fetch(`${dev.base}/dev/orders/${created.data.trade_no}/expire`, { method: "POST" })).status).toBe(200);
      expect(await statusOf(created.data.trade_no)).toBe(4);
      expect((await fetch(`${dev.base}/dev/orders/${created.data.trade_no}/expire`, { method: "POST" })).status).toBe(409);
      expect((await fetch(`${dev.base}/dev/orders/00000000000000000000/pay`, { method: "POST" })).status).toBe(404);
    });

    test("every answer carries X-Xpay-Mode: test; HTML pages carry the banner, the cashier page the simulate panel", async () => {
      const answers = [
        await fetch(`${dev.base}/healthz`),
        await fetch(`${dev.base}/xpay/order/create`, form({ pid: "1001" })),
        await fetch(`${dev.base}/api/order/status`, form({ order_id: "1" })),
        await fetch(`${dev.base}/no/such/path`),
        await fetch(`${dev.base}/dev`),
      ];
      for (const r of answers) expect(`${r.url} ${r.headers.get("x-xpay-mode")}`).toBe(`${r.url} test`);
      const params: Record<string, string> = { pid: dev.pid, pay_type: "alipay", name: "VIP", money: "9.00", out_trade_no: "B-1" };
      params.sign = md5Rule(params, dev.secret, ["sign"]);
      const created = (await (await fetch(`${dev.base}/xpay/order/create`, form(params))).json()) as { data: { trade_no: string } };
      const page = await fetch(`${dev.base}/pay/${created.data.trade_no}`);
      expect(page.headers.get("x-xpay-mode")).toBe("test");
      const html = await page.text();
      expect(html).toContain('id="xpay-test-mode"');
      expect(html).toContain("测试模式");
      for (const label of ["模拟支付成功", "让订单过期", "模拟失败"]) expect(html).toContain(label);
      const errorPage = await (await fetch(`${dev.base}/xpay/epay/submit.php?pid=1001`)).text();
      expect(errorPage).toContain('id="xpay-test-mode"');
      expect(errorPage).not.toContain('id="xpay-dev-panel"');
      const setup = (await (await fetch(`${dev.base}/dev`)).json()) as { mode: string; pid: number; app_secret: string };
      expect(setup).toMatchObject({ mode: "test", pid: 1001, app_secret: dev.secret });
    });
  });
}

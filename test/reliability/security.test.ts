// Security items: constant-time signature checks in every family, the timestamp replay window,
// the notify_url policy, the body size limit, the public rate limit, the database file mode and
// secrets kept out of the logs.
import { afterEach, beforeEach, describe, expect, spyOn, test } from "bun:test";
import * as nodeCrypto from "node:crypto";
import { lookup } from "node:dns/promises";
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { deliverDue } from "../../src/core/notify/deliver.ts";
import { isPrivateAddress, literalTargetProblem, resolvedTargetProblem } from "../../src/core/notify/target.ts";
import { safeEqual } from "../../src/protocols/signing.ts";
import { TokenBuckets } from "../../src/server/rate-limit.ts";
import { openDatabase } from "../../src/store/db.ts";
import { v1Params } from "../epay-v1/sdk.ts";
import { newMerchantKeys, post as v2Post, v2Params } from "../epay-v2/sdk.ts";
import { hashParams } from "../hashpay/sdk.ts";
import { type Harness, harness, nativeCreate, SECRET, seed, signed, tempDir } from "../helpers.ts";

const ROOT = join(import.meta.dir, "../..");
let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
});
afterEach(() => h.close());

const form = (path: string, params: Record<string, string>, method = "POST") =>
  h.app.handle(method === "GET"
    ? new Request(`http://localhost${path}?${new URLSearchParams(params)}`)
    : new Request(`http://localhost${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(params) }));
const json = (path: string, body: unknown) => h.app.handle(new Request(`http://localhost${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
const setting = async (k: string, v: string) => {
  await h.gw.store.setSetting(k, v);
  h.gw.forgetSettings();
};

describe("constant-time signature comparison", () => {
  test("safeEqual: equal, unequal, case-insensitive hex, different lengths", () => {
    expect(safeEqual("abcdef", "ABCDEF")).toBe(true);
    expect(safeEqual("abcdef", "abcdee")).toBe(false);
    expect(safeEqual("abc", "abcdef")).toBe(false);
    expect(safeEqual("", "")).toBe(true);
  });

  test("every MD5 family's check goes through crypto.timingSafeEqual; V2 through RSA verify", async () => {
    const tse = spyOn(nodeCrypto, "timingSafeEqual");
    const calls: Record<string, number> = {};
    const probe = async (name: string, send: () => Promise<Response>) => {
      const before = tse.mock.calls.length;
      const res = await send();
      expect(res.status).toBeLessThan(500);
      calls[name] = tse.mock.calls.length - before;
    };
    await probe("native", () => json("/xpay/order/create", { ...nativeCreate(), sign: "0".repeat(32) }));
    await probe("epay-v1 mapi", () => form("/xpay/epay/mapi.php", { ...v1Params(), sign: "0".repeat(32) }));
    await probe("epay-v1 submit", () => form("/xpay/epay/submit.php", { ...v1Params(), sign: "0".repeat(32) }, "GET"));
    await probe("epay-v1 api key", () => form("/xpay/epay/api.php", { act: "query", pid: "1001", key: "x".repeat(32) }, "GET"));
    await probe("hash", () => h.app.handle(new Request("http://localhost/xpay/hashpay/payment/do.html", { method: "POST", body: JSON.stringify({ ...hashParams(h), hash: "0".repeat(32) }) })));
    await probe("report", () => json("/api/report/1001/pc", { ...signed({ timestamp: h.clock.now(), amount: 1000, pay_type: "alipay", channel_code: "alipay_qr" }), sign: "0".repeat(32) }));
    tse.mockRestore();
    for (const [name, n] of Object.entries(calls)) expect([name, n >= 1]).toEqual([name, true]);

    const keys = newMerchantKeys();
    await h.gw.store.updateMerchant(1001, { rsaPublicKey: keys.merchantPublic });
    const verify = spyOn(nodeCrypto, "createVerify");
    const res = (await (await v2Post(h, "create", { ...v2Params(h, keys), money: "0.01" })).json()) as any;
    expect(res.code).toBe(-1);
    expect(verify).toHaveBeenCalled();
    verify.mockRestore();
  });

  test("no protocol source compares a signature, hash or key with == / !=", () => {
    const offenders: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const p = join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (p.endsWith(".ts")) {
          readFileSync(p, "utf8").split("\n").forEach((line, i) => {
            if (/\b(sign|hash|key|secret)\b[^=\n]*[!=]==?(?!>)|[!=]==?\s*[\w.]*\b(sign|hash|key)\b(?!_)/.test(line) && /(params|p|body|given|merchant)\.(sign|hash|key|secret)\b|\bsign\b\s*[!=]==/.test(line) && !/typeof|=== undefined|=== ""|\.length|sign_type|"sign"|'sign'/.test(line)) offenders.push(`${p}:${i + 1}: ${line.trim()}`);
          });
        }
      }
    };
    walk(join(ROOT, "src/protocols"));
    expect(offenders).toEqual([]);
  });
});

describe("replay outside the timestamp window is refused", () => {
  test("native cancel, report API and epay V2, 301 s either side; inside the window passes", async () => {
    const c = (await (await json("/xpay/order/create", nativeCreate({ out_trade_no: "T1" }))).json()) as any;
    expect(c.code).toBe(200);
    for (const skew of [-301, 301]) {
      const cancel = (await (await json("/xpay/order/cancel", signed({ pid: 1001, out_order_id: "T1", timestamp: h.clock.now() + skew }))).json()) as any;
      expect(cancel.code).toBe(400);
      expect(cancel.msg).toContain("outside the allowed window");
      const rep = await json("/api/report/1001/pc", signed({ timestamp: h.clock.now() + skew, amount: 1000, pay_type: "alipay", channel_code: "alipay_qr" }));
      const rb = (await rep.json()) as any;
      expect(rb.code).toBe(400);
      expect(rb.message).toContain("outside the allowed window");
      const rms = (await (await json("/api/report/1001/pc", signed({ timestamp: (h.clock.now() + skew) * 1000, amount: 1000, pay_type: "alipay", channel_code: "alipay_qr" }))).json()) as any;
      expect(rms.code).toBe(400);
    }
    const keys = newMerchantKeys();
    await h.gw.store.updateMerchant(1001, { rsaPublicKey: keys.merchantPublic });
    for (const skew of [-301, 301]) {
      const v2 = (await (await v2Post(h, "create", v2Params(h, keys, { timestamp: h.clock.now() + skew }))).json()) as any;
      expect(v2.code).toBe(-1);
      expect(v2.msg).toContain("window");
      const q = (await (await v2Post(h, "query", v2Params(h, keys, { timestamp: h.clock.now() + skew }))).json()) as any;
      expect(q.code).toBe(-1);
    }
    // A captured request replayed later: valid now, refused once the window has passed.
    const captured = signed({ pid: 1001, out_order_id: "T1", timestamp: h.clock.now() });
    h.clock.advance(301);
    expect(((await (await json("/xpay/order/cancel", captured)).json()) as any).msg).toContain("outside the allowed window");
    h.clock.advance(-301);
    expect(((await (await json("/xpay/order/cancel", captured)).json()) as any).code).toBe(200);
    expect(((await (await v2Post(h, "create", v2Params(h, keys, { timestamp: h.clock.now() - 299 }))).json()) as any).code).toBe(0);
  });
});

describe("notify_url policy", () => {
  test("address classes", () => {
    for (const a of ["127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "::", "fe80::1", "fc00::1", "fd12::3", "::ffff:127.0.0.1", "::ffff:7f00:1", "224.0.0.1", "not-an-ip"]) {
      expect([a, isPrivateAddress(a)]).toEqual([a, true]);
    }
    for (const a of ["8.8.8.8", "1.1.1.1", "172.32.0.1", "192.169.0.1", "2606:4700::1111", "::ffff:8.8.8.8"]) expect([a, isPrivateAddress(a)]).toEqual([a, false]);
    for (const u of ["http://127.0.0.1/n", "http://localhost:9/n", "http://LOCALHOST/n", "http://a.localhost/n", "http://[::1]/n", "http://169.254.169.254/latest", "http://10.0.0.5/n", "http://2130706433/n", "http://0x7f.1/n"]) {
      expect([u, literalTargetProblem(u) !== null]).toEqual([u, true]);
    }
    expect(literalTargetProblem("https://merchant.example.com/notify")).toBeNull();
  });

  test("default off: loopback notify_url accepted; on: refused at create time in each family's shape", async () => {
    const loop = "http://127.0.0.1:9/n";
    expect(((await (await json("/xpay/order/create", nativeCreate({ notify_url: loop }))).json()) as any).code).toBe(200);
    await setting("notify_block_private", "1");
    const n = (await (await json("/xpay/order/create", nativeCreate({ notify_url: loop }))).json()) as any;
    expect(n).toMatchObject({ code: 400, data: null });
    expect(n.msg).toContain("private");
    const v1 = (await (await form("/xpay/epay/mapi.php", v1Params({ notify_url: "http://192.168.0.10/n" }))).json()) as any;
    expect(v1.code).toBe(-1);
    expect(v1.msg).toContain("private");
    const hs = (await (await h.app.handle(new Request("http://localhost/xpay/hashpay/payment/do.html", { method: "POST", body: JSON.stringify(hashParams(h, { notify_url: "http://[::1]/n" })) }))).json()) as any;
    expect(hs.errcode).not.toBe(0);
    expect(hs.errmsg).toContain("private");
    expect(((await (await json("/xpay/order/create", nativeCreate({ notify_url: "https://merchant.example.com/n" }))).json()) as any).code).toBe(200);
  });

  test("delivery time: the resolved address is checked before sending", async () => {
    let sent = 0;
    const receiver = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => (sent++, new Response("success")) });
    try {
      const c = (await (await json("/xpay/order/create", nativeCreate({ notify_url: `http://127.0.0.1:${receiver.port}/n` }))).json()) as any;
      const r = (await (await json("/api/report/1001/pc", signed({ timestamp: h.clock.now(), amount: Math.round(Number(c.data.trade_amount) * 100), pay_type: "alipay", channel_code: "alipay_qr" }))).json()) as any;
      expect(r.data.outcome).toBe("matched");
      await setting("notify_block_private", "1"); // turned on after the order was accepted
      await deliverDue(h.gw);
      expect(sent).toBe(0);
      const n = await h.gw.store.getNotification(c.data.trade_no);
      expect(n!.attempts_log[0]!.error).toContain("private");
      await setting("notify_block_private", "0");
      await h.gw.store.requeueNotification(c.data.trade_no, h.clock.nowMs());
      await deliverDue(h.gw);
      expect(sent).toBe(1);
    } finally {
      receiver.stop(true);
    }
    // A name that resolves to a private address (this host's name, from /etc/hosts or DNS).
    const name = hostname();
    const addrs = await lookup(name, { all: true }).catch(() => []);
    if (addrs.length && addrs.every((a) => isPrivateAddress(a.address))) expect(await resolvedTargetProblem(`http://${name}:9/n`)).toContain("resolves to");
    expect(await resolvedTargetProblem("http://no-such-host.invalid/n")).toContain("cannot resolve");
  });
});

describe("body size limit and rate limit", () => {
  test("a body over 64 KiB is refused in the family's shape before it is parsed", async () => {
    const big = "x=" + "y".repeat(65 * 1024);
    const n = (await (await h.app.handle(new Request("http://localhost/xpay/order/create", { method: "POST", body: big }))).json()) as any;
    expect(n.msg).toContain("larger than 65536 bytes");
    const t = (await (await h.app.handle(new Request("http://localhost/api/order/info", { method: "POST", body: big }))).json()) as any;
    expect(t.message).toContain("larger than");
  });

  test("token bucket: capacity one minute's worth, refills continuously, per key", () => {
    const b = new TokenBuckets();
    const t = 1_000_000;
    for (let i = 0; i < 3; i++) expect(b.take("a", 3, t)).toBe(true);
    expect(b.take("a", 3, t)).toBe(false);
    expect(b.take("b", 3, t)).toBe(true);
    expect(b.take("a", 3, t + 20_000)).toBe(true); // 20 s = one token at 3/min
    expect(b.take("a", 3, t + 20_000)).toBe(false);
  });

  test("public routes answer 429 in the template shape past public_rate_limit; merchant API is not limited; 0 = off", async () => {
    await setting("public_rate_limit", "5");
    const info = () => json("/api/order/info", { order_id: "nope" });
    for (let i = 0; i < 5; i++) expect((await info()).status).not.toBe(429);
    const limited = await info();
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("12");
    expect(await limited.json()).toEqual({ code: 429, message: "too many requests, slow down", data: null });
    expect((await h.app.handle(new Request("http://localhost/pay/nope"))).status).toBe(429);
    expect((await h.app.handle(new Request("http://localhost/qrcode?text=a"))).status).toBe(429);
    for (let i = 0; i < 10; i++) expect((await json("/xpay/order/status", { pid: "1001" })).status).not.toBe(429);
    await setting("public_rate_limit", "0");
    for (let i = 0; i < 20; i++) expect((await info()).status).not.toBe(429);
  });
});

describe("database file mode", () => {
  test("a new database file (and its WAL/SHM files) is created 0600", () => {
    const dir = tempDir();
    const path = join(dir, "new.db");
    const db = openDatabase(path);
    db.exec("CREATE TABLE t (x); INSERT INTO t VALUES (1)");
    for (const f of [path, `${path}-wal`, `${path}-shm`]) expect([f, (statSync(f).mode & 0o777).toString(8)]).toEqual([f, "600"]);
    db.close();
    rmSync(dir, { recursive: true, force: true });
    expect((statSync(h.dbPath).mode & 0o777).toString(8)).toBe("600");
  });
});

describe("a real server: secrets never in the logs, --notify-block-private, Bun's body limit", () => {
  test("json logs of signed requests hold neither the AppSecret nor any sign value", async () => {
    h.gw.store.close();
    const dbPath = h.dbPath;
    const port = (() => {
      const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
      const p = s.port!;
      s.stop(true);
      return p;
    })();
    const child = Bun.spawn([process.execPath, "src/cli/main.ts", "--db", dbPath, "serve", "--port", String(port), "--log-format", "json", "--notify-block-private"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
    const base = `http://127.0.0.1:${port}`;
    const signs: string[] = [];
    try {
      for (let i = 0; i < 200; i++) {
        if (await fetch(`${base}/healthz`).then(() => true, () => false)) break;
        await Bun.sleep(25);
      }
      const send = async (path: string, params: Record<string, string>, where: "query" | "form" | "json") => {
        if (params.sign) signs.push(params.sign);
        if (params.hash) signs.push(params.hash);
        const res =
          where === "query" ? await fetch(`${base}${path}?${new URLSearchParams(params)}`, { method: path.includes("submit") || path.includes("api.php") ? "GET" : "POST" })
          : where === "form" ? await fetch(`${base}${path}`, { method: "POST", body: new URLSearchParams(params) })
          : await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(params) });
        return res.text();
      };
      await send("/xpay/order/create", nativeCreate(), "form");
      await send("/xpay/order/create", nativeCreate(), "query");
      await send("/xpay/order/create", nativeCreate(), "json");
      await send("/xpay/order/create", { ...nativeCreate(), sign: "f".repeat(32) }, "json"); // refused: logged as an error?
      await send("/xpay/epay/submit.php", v1Params(), "query");
      await send("/xpay/epay/mapi.php", v1Params(), "form");
      await send("/xpay/epay/api.php", { act: "query", pid: "1001", key: SECRET }, "query");
      await send("/xpay/epay/api.php", { act: "query", pid: "1001", key: "wrong-key-value-0123456789abcdef" }, "query");
      await send("/api/report/1001/pc", signed({ timestamp: Math.floor(Date.now() / 1000), amount: 1000, pay_type: "alipay", channel_code: "alipay_qr" }), "query");
      await send("/api/report/1001/pc", signed({ timestamp: Math.floor(Date.now() / 1000), amount: 999, pay_type: "alipay", channel_code: "alipay_qr" }), "json");
      // --notify-block-private on the command line refuses a loopback target at create time.
      const blocked = JSON.parse(await send("/xpay/order/create", nativeCreate({ notify_url: "http://127.0.0.1:9/n" }), "json"));
      expect(blocked.code).toBe(400);
      expect(blocked.msg).toContain("private");
      // Over Bun's own 2 MB limit: refused by the server (413), which stays up.
      const huge = await fetch(`${base}/xpay/order/create`, { method: "POST", body: "a=" + "b".repeat(3 * 1024 * 1024) }).then((r) => r.status, () => 413);
      expect([413, 400]).toContain(huge);
      expect((await fetch(`${base}/healthz`)).status).toBeLessThan(500);
    } finally {
      child.kill("SIGTERM");
      await child.exited;
    }
    const log = (await new Response(child.stdout).text()) + (await new Response(child.stderr).text());
    expect(log).toContain('"path"'); // the access log was written
    expect(log.includes(SECRET)).toBe(false);
    expect(log.includes("wrong-key-value-0123456789abcdef")).toBe(false);
    expect(log.includes("f".repeat(32))).toBe(false);
    expect(signs.length).toBeGreaterThanOrEqual(9);
    expect(signs.filter((s) => log.includes(s))).toEqual([]);
  }, 20_000);
});

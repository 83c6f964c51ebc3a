// Bad input on the vmq routes: each answer is V免签's own {code: -1, msg} with HTTP 200 (the app
// re-sends on anything else), never a 500; a refused push or heartbeat is stored where the
// report API stores refusals (bounded, with the reason), and nothing is paid.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ManualClock } from "../../src/core/clock.ts";
import type { Gateway } from "../../src/core/gateway.ts";
import { buildApp } from "../../src/server/app.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import { type Harness, harness, nativeCreate, postJson, tempDir } from "../helpers.ts";
import { appHeartUrl, appPushUrl, get, KEY, md5, seedVmq } from "./clients.ts";

let h: Harness;
let orderId: string;
beforeEach(async () => {
  h = harness();
  await seedVmq(h);
  const made = await get(h, `http://localhost/createOrder?payId=P1&type=2&price=10&sign=${md5("P12" + "10" + KEY)}`);
  orderId = made.body.data.orderId;
});
afterEach(() => h.close());

const now = () => String(h.clock.nowMs());
const push = (q: Record<string, string>) => `http://localhost/appPush?${Object.entries(q).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&")}`;
/** A push signed correctly over whatever texts it carries: only the field checks can refuse it. */
const signedPush = (type: string, price: string, t = now()) => push({ t, type, price, sign: md5(type + price + t + KEY) });

const rejected = async () => (await h.gw.store.listReports({ outcome: "rejected", limit: 1000 })).filter((r) => r.kind === "vmq-push" || r.kind === "vmq-heart");

describe("appPush and appHeart refusals", () => {
  const cases: [string, () => string, string][] = [
    ["wrong sign", () => appPushUrl(now(), 2, 10, "not-the-key"), "签名校验不通过"],
    ["sign of another field order", () => push({ t: now(), type: "2", price: "10.0", sign: md5(now() + "2" + "10.0" + KEY) }), "签名校验不通过"],
    ["missing price", () => push({ t: now(), type: "2", sign: md5("2" + now() + KEY) }), "签名校验不通过"],
    ["missing everything", () => "http://localhost/appPush", "签名校验不通过"],
    ["unknown type 3", () => signedPush("3", "10.0"), "支付方式错误=>1|微信 2|支付宝"],
    ["type 12 (two characters)", () => signedPush("12", "10.0"), "支付方式错误=>1|微信 2|支付宝"],
    ["price=abc", () => signedPush("2", "abc"), "金额格式错误：最多两位小数，且不超过99999999.99"],
    ["negative price", () => signedPush("2", "-10.0"), "金额格式错误：最多两位小数，且不超过99999999.99"],
    ["three decimals", () => signedPush("2", "9.999"), "金额格式错误：最多两位小数，且不超过99999999.99"],
    ["NaN", () => signedPush("2", "NaN"), "金额格式错误：最多两位小数，且不超过99999999.99"],
    ["Infinity", () => signedPush("2", "Infinity"), "金额格式错误：最多两位小数，且不超过99999999.99"],
    ["huge price 1.0E8", () => signedPush("2", "1.0E8"), "金额格式错误：最多两位小数，且不超过99999999.99"],
    ["huge price 1.0E308", () => signedPush("2", "1.0E308"), "金额格式错误：最多两位小数，且不超过99999999.99"],
    ["huge t", () => signedPush("2", "10.0", "9".repeat(40)), "客户端时间错误"],
    ["t in seconds", () => signedPush("2", "10.0", String(h.clock.now())), "客户端时间错误"],
    ["t two days old", () => signedPush("2", "10.0", String(h.clock.nowMs() - 2 * 86_400_000)), "客户端时间错误"],
    ["t two days ahead", () => signedPush("2", "10.0", String(h.clock.nowMs() + 2 * 86_400_000)), "客户端时间错误"],
    ["heart: wrong sign", () => appHeartUrl(now(), "wrong"), "签名校验不通过"],
    ["heart: missing t", () => `http://localhost/appHeart?sign=${md5(KEY)}`, "签名校验不通过"],
    ["heart: stale t", () => appHeartUrl(String(h.clock.nowMs() - 2 * 86_400_000)), "客户端时间错误"],
  ];

  for (const [name, url, msg] of cases) {
    test(`${name}: ${msg}, stored as a refusal, nothing paid`, async () => {
      const before = (await rejected()).length;
      const r = await get(h, url());
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ code: -1, msg, data: null });
      const stored = await rejected();
      expect(stored.length).toBe(before + 1);
      expect(stored[0]!.reason.length).toBeGreaterThan(0);
      expect((await h.gw.store.getOrder(orderId))!.status).toBe(1);
    });
  }

  test("the same refusals over POST form bodies, and hostile bodies, are never a 500", async () => {
    const bodies = ["t=1&type=2&price=10.0&sign=x", "t[]=1&sign[]=2", "{\"t\": {\"a\": 1}}", "{bad json", "t=%FF%FE&sign=%", "type=2&type=1", "x=" + "y".repeat(70_000)];
    for (const path of ["/appPush", "/appHeart", "/getState", "/createOrder", "/getOrder", "/checkOrder", "/closeOrder"]) {
      for (const body of bodies) {
        const res = await h.app.handle(new Request(`http://localhost${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body }));
        const b = (await res.json()) as any;
        expect(res.status).toBe(200);
        expect(b).toMatchObject({ code: -1, data: null });
        expect(typeof b.msg).toBe("string");
      }
    }
  });
});

describe("createOrder refusals in V免签's order and words", () => {
  const sign = (payId: string, param: string, type: string, price: string) => md5(payId + param + type + price + KEY);
  const cases: [string, string, string][] = [
    ["no payId", "type=2&price=10&sign=x", "请传入商户订单号"],
    ["no type", "payId=A&price=10&sign=x", "请传入支付方式=>1|微信 2|支付宝"],
    ["type 3", "payId=A&type=3&price=10&sign=x", "支付方式错误=>1|微信 2|支付宝"],
    ["no price", "payId=A&type=2&sign=x", "请传入订单金额"],
    ["price 0", "payId=A&type=2&price=0&sign=x", "订单金额必须大于0"],
    ["price -1", "payId=A&type=2&price=-1&sign=x", "订单金额必须大于0"],
    ["price abc", `payId=A&type=2&price=abc&sign=${sign("A", "", "2", "abc")}`, "金额格式错误：最多两位小数，且不超过99999999.99"],
    ["price 1e3", `payId=A&type=2&price=1e3&sign=${sign("A", "", "2", "1e3")}`, "金额格式错误：最多两位小数，且不超过99999999.99"],
    ["price 10.001", `payId=A&type=2&price=10.001&sign=${sign("A", "", "2", "10.001")}`, "金额格式错误：最多两位小数，且不超过99999999.99"],
    ["huge price", `payId=A&type=2&price=100000000&sign=${sign("A", "", "2", "100000000")}`, "金额格式错误：最多两位小数，且不超过99999999.99"],
    ["no sign", "payId=A&type=2&price=10", "请传入签名"],
    ["wrong sign", `payId=A&type=2&price=10&sign=${md5("A210wrong")}`, "签名错误"],
    ["sign over another param", `payId=A&type=2&price=10&param=x&sign=${sign("A", "", "2", "10")}`, "签名错误"],
    ["payId exists with another amount", `payId=P1&type=2&price=11&sign=${sign("P1", "", "2", "11")}`, "商户订单号已存在"],
  ];
  for (const [name, query, msg] of cases) {
    test(`${name}: ${msg}`, async () => {
      const r = await get(h, `http://localhost/createOrder?${query}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ code: -1, msg, data: null });
    });
  }

  test("fields xpay refuses for every family: too long a payId, a notifyUrl that is not http(s)", async () => {
    const long = "L".repeat(65);
    const a = await get(h, `http://localhost/createOrder?payId=${long}&type=2&price=10&sign=${sign(long, "", "2", "10")}`);
    expect(a.body.code).toBe(-1);
    expect(a.body.msg).toStartWith("参数错误：");
    const b = await get(h, `http://localhost/createOrder?payId=B&type=2&price=10&notifyUrl=javascript:alert(1)&sign=${sign("B", "", "2", "10")}`);
    // Not the merchant's notification address (issue 27 item 5), whatever else is wrong with it.
    expect(b.body.msg).toStartWith("参数错误：notifyUrl is not this merchant's notification address");
  });

  test("an identical retry returns the same order (a payer reloading the shop's redirect)", async () => {
    const again = await get(h, `http://localhost/createOrder?payId=P1&type=2&price=10.00&sign=${sign("P1", "", "2", "10.00")}`);
    expect(again.body.data.orderId).toBe(orderId);
  });

  test("the monitor offline with require_online_client: V免签's 监控端状态异常", async () => {
    await h.gw.store.setSetting("require_online_client", "1");
    h.gw.forgetSettings();
    const r = await get(h, `http://localhost/createOrder?payId=C&type=1&price=10&sign=${sign("C", "", "1", "10")}`);
    expect(r.body).toEqual({ code: -1, msg: "监控端状态异常，请检查", data: null });
    await get(h, appHeartUrl(now()));
    expect((await get(h, `http://localhost/createOrder?payId=C&type=1&price=10&sign=${sign("C", "", "1", "10")}`)).body.code).toBe(1);
  });
});

describe("order lookups", () => {
  test("unknown, hostile and other families' order numbers read 云端订单编号不存在", async () => {
    const native = await postJson(h, "/xpay/order/create", nativeCreate());
    expect(native.body.code).toBe(200);
    for (const id of [native.body.data.trade_no, "", "x", "1".repeat(20), "%3Cscript%3E", "a".repeat(5000), "'%20OR%201=1--"]) {
      for (const path of ["getOrder", "checkOrder"]) {
        const r = await get(h, `http://localhost/${path}?orderId=${id}`);
        expect(r.status).toBe(200);
        expect(r.body).toEqual({ code: -1, msg: "云端订单编号不存在", data: null });
      }
    }
  });
});

describe("failed signatures count in the per-address throttle", () => {
  let gw: Gateway;
  let dir: string;
  afterEach(() => {
    gw.store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("an address that keeps guessing keys is answered at once, even with the right key; stored refusals stop", async () => {
    dir = tempDir();
    const clock = new ManualClock();
    gw = openGateway({ db: join(dir, "t.db"), clock, trustProxy: true });
    await gw.store.addMerchant({ pid: 1001, name: "S", secret: "s".repeat(32), now: clock.now() });
    await gw.store.addKeyedClient({ kind: "vmq", pid: 1001, name: "phone1", key: KEY, accountIds: [], now: clock.now() });
    await gw.store.setSetting("auth_fail_limit", "3");
    const app = buildApp(gw);
    const send = async (url: string, ip: string) => {
      const res = await app.handle(new Request(url, { headers: { "x-forwarded-for": ip } }));
      return { status: res.status, retry: res.headers.get("retry-after"), body: (await res.json()) as any };
    };
    const t = String(clock.nowMs());
    for (let i = 0; i < 3; i++) expect((await send(appPushUrl(t, 2, 10, `guess${i}`), "198.51.100.9")).body.msg).toBe("签名校验不通过");
    const stored = (await gw.store.listReports({ outcome: "rejected" })).length;
    const blocked = await send(appPushUrl(t, 2, 10), "198.51.100.9");
    expect(blocked.status).toBe(200);
    expect(blocked.body).toEqual({ code: -1, msg: "认证失败次数过多，请一分钟后再试", data: null });
    expect(blocked.retry).toBe("20");
    expect((await send(`http://localhost/createOrder?payId=A&type=2&price=1&sign=${md5("A21" + KEY)}`, "198.51.100.9")).body.code).toBe(-1);
    expect((await gw.store.listReports({ outcome: "rejected" })).length).toBe(stored);
    expect((await send(appHeartUrl(t), "198.51.100.10")).body.code).toBe(1);
  });
});

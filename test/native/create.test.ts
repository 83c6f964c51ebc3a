import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { BASE, harness, type Harness, nativeCreate, postForm, postJson, SECRET, seed, signed } from "../helpers.ts";

let h: Harness;
beforeEach(() => {
  h = harness();
});
afterEach(() => h.close());

describe("native create", () => {
  test("JSON body: creates a pending order with cashier uri and the account's QR", async () => {
    await seed(h);
    const { body } = await postJson(h, "/xpay/order/create", nativeCreate({ out_trade_no: "A1", money: "9.90" }));
    expect(body.code).toBe(200);
    expect(body.data.trade_no).toMatch(/^\d{20}$/);
    expect(body.data).toMatchObject({ out_trade_no: "A1", pay_type: "alipay", amount: "9.90", trade_amount: "9.90", qrcode: "https://qr.alipay.com/fkx0001" });
    expect(body.data.uri).toBe(`${BASE}/pay/${body.data.trade_no}`);
    expect(body.data.expire_time).toBe(h.clock.now() + 900);
    const order = await h.gw.store.getOrder(body.data.trade_no);
    expect(order).toMatchObject({ status: 1, amount: 990, tradeAmount: 990, family: "native" });
  });

  test("form body and the vector's Chinese/reserved characters verify", async () => {
    await seed(h, { payType: "wxpay" });
    const vector = { pay_type: "wxpay", name: "测试 商品+&x=1", money: "0.01", param: '{"uid":7}', notify_url: "https://shop.example/notify?a=1&b=2", return_url: "" };
    // The vector's name verifies (400, not 401) but holds `&x=`, which a signed notification would
    // read as a field of its own: refused at create (issue 27 item 2). Without the `=` it is fine.
    const refused = (await (await postForm(h, "/xpay/order/create", nativeCreate(vector))).json()) as any;
    expect(refused).toMatchObject({ code: 400, msg: expect.stringContaining("name must not contain an ampersand followed by key= text") });
    const res = await postForm(h, "/xpay/order/create", nativeCreate({ ...vector, name: "测试 商品+&x" }));
    const body = (await res.json()) as any;
    expect(body.code).toBe(200);
    expect(body.data.amount).toBe("0.01");
  });

  test("unknown fields an SDK adds are part of the signature", async () => {
    await seed(h);
    const params = nativeCreate({ lang: "zh-cn" });
    expect((await postJson(h, "/xpay/order/create", params)).body.code).toBe(200);
    const dropped = { ...params, sitename: "extra unsigned" };
    expect((await postJson(h, "/xpay/order/create", dropped)).body.code).toBe(401);
  });

  test("tampered field, wrong secret, missing sign, missing field", async () => {
    await seed(h);
    const good = nativeCreate();
    const tampered = { ...good, money: "0.01" };
    expect((await postJson(h, "/xpay/order/create", tampered)).body).toMatchObject({ code: 401, data: null });
    const wrong = signed({ pid: 1001, pay_type: "alipay", name: "VIP", money: "1.00", out_trade_no: "W1" }, "f".repeat(32));
    expect((await postJson(h, "/xpay/order/create", wrong)).body.code).toBe(401);
    const { sign: _s, ...nosign } = good;
    expect((await postJson(h, "/xpay/order/create", nosign)).body).toMatchObject({ code: 400, msg: "missing parameter: sign" });
    const { name: _n, ...noname } = good;
    expect((await postJson(h, "/xpay/order/create", signed(noname))).body).toMatchObject({ code: 400, msg: "missing parameter: name" });
  });

  test.each(["1.001", "-1", "abc", "0", "0.00", "1e2"])("bad amount %p is refused with 400", async (money) => {
    await seed(h);
    const { body } = await postJson(h, "/xpay/order/create", nativeCreate({ money }));
    expect(body.code).toBe(400);
    expect(body.msg).toContain("money");
  });

  test("unknown pid and disabled merchant", async () => {
    await seed(h);
    expect((await postJson(h, "/xpay/order/create", nativeCreate({ pid: 4242 }))).body).toMatchObject({ code: 403, msg: "unknown merchant (pid)" });
    await h.gw.store.updateMerchant(1001, { active: false });
    expect((await postJson(h, "/xpay/order/create", nativeCreate())).body).toMatchObject({ code: 403, msg: "merchant is disabled" });
  });

  test("same out_trade_no: same amount returns the same order; a different amount is an error", async () => {
    await seed(h);
    const a = await postJson(h, "/xpay/order/create", nativeCreate({ out_trade_no: "DUP", money: "5.00" }));
    const b = await postJson(h, "/xpay/order/create", nativeCreate({ out_trade_no: "DUP", money: "5.00" }));
    expect(b.body.data.trade_no).toBe(a.body.data.trade_no);
    expect(b.body.data.trade_amount).toBe(a.body.data.trade_amount);
    const c = await postJson(h, "/xpay/order/create", nativeCreate({ out_trade_no: "DUP", money: "6.00" }));
    expect(c.body.code).toBe(409);
    expect(c.body.msg).toContain("different amount");
  });

  test("concurrent equal-amount orders on one account get different trade_amounts, searching downwards", async () => {
    await seed(h);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => postJson(h, "/xpay/order/create", nativeCreate({ out_trade_no: `C${i}`, money: "10.00" }))));
    const amounts = results.map((r) => r.body.data.trade_amount).sort();
    expect(new Set(amounts).size).toBe(8);
    expect(amounts).toEqual(["10.00", "9.93", "9.94", "9.95", "9.96", "9.97", "9.98", "9.99"]);
  });

  test("slot exhaustion records status 5 with its reason; a retry of that out_trade_no reuses the row", async () => {
    await seed(h);
    await h.gw.store.setSetting("max_offset", "1");
    h.gw.forgetSettings();
    expect((await postJson(h, "/xpay/order/create", nativeCreate({ out_trade_no: "S1", money: "1.00" }))).body.code).toBe(200);
    expect((await postJson(h, "/xpay/order/create", nativeCreate({ out_trade_no: "S2", money: "1.00" }))).body.code).toBe(200);
    const third = await postJson(h, "/xpay/order/create", nativeCreate({ out_trade_no: "S3", money: "1.00" }));
    expect(third.body.code).toBe(422);
    expect(third.body.msg).toContain("no free payable amount");
    const failed = await h.gw.store.getOrderByOutTradeNo(1001, "S3");
    expect(failed).toMatchObject({ status: 5, failReason: expect.stringContaining("no free payable amount") });
    // once the window has passed for S1/S2, S3's retry succeeds on the same row
    h.clock.advance(900 + 601);
    const retry = await postJson(h, "/xpay/order/create", nativeCreate({ out_trade_no: "S3", money: "1.00" }));
    expect(retry.body.code).toBe(200);
    expect(retry.body.data.trade_no).toBe(failed!.tradeNo);
  });

  test("min/max/day limits and missing pay type fail the order", async () => {
    await seed(h, { min: 100, max: 1000, day: 1500 });
    expect((await postJson(h, "/xpay/order/create", nativeCreate({ money: "0.50" }))).body.msg).toContain("minimum");
    expect((await postJson(h, "/xpay/order/create", nativeCreate({ money: "10.01" }))).body.msg).toContain("maximum");
    expect((await postJson(h, "/xpay/order/create", nativeCreate({ pay_type: "qqpay" }))).body.msg).toContain("no enabled account for pay type qqpay");
    const paid = await postJson(h, "/xpay/order/create", nativeCreate({ money: "10.00" }));
    await h.gw.store.payOrder({ tradeNo: paid.body.data.trade_no, now: h.clock.now(), nowMs: h.clock.nowMs(), acceptTimedOutSince: 0, outbox: () => null });
    expect((await postJson(h, "/xpay/order/create", nativeCreate({ money: "6.00" }))).body.msg).toContain("daily limit");
    expect((await postJson(h, "/xpay/order/create", nativeCreate({ money: "5.00" }))).body.code).toBe(200);
  });

  test("bad bodies answer in the envelope, never 500", async () => {
    await seed(h);
    for (const body of ["{", "[1,2]", '{"pid":[1]}', "pid=1&pid=2", "a[]=1"]) {
      const res = await h.app.handle(new Request("http://localhost/xpay/order/create", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body }));
      expect(res.status).toBe(200);
      const j = (await res.json()) as any;
      expect(j.code).toBe(400);
      expect(typeof j.msg).toBe("string");
    }
  });
});

describe("native create-page", () => {
  test("302 to the cashier on success, an HTML error page otherwise", async () => {
    await seed(h);
    const res = await postForm(h, "/xpay/order/create-page", nativeCreate({ out_trade_no: "P1" }));
    expect(res.status).toBe(302);
    const order = await h.gw.store.getOrderByOutTradeNo(1001, "P1");
    expect(res.headers.get("location")).toBe(`${BASE}/pay/${order!.tradeNo}`);
    const bad = await postForm(h, "/xpay/order/create-page", { ...nativeCreate(), name: "<script>x</script>" });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-type")).toContain("text/html");
    const page = await bad.text();
    expect(page).toContain("signature mismatch");
    expect(page).not.toContain("<script>x");
  });
});

test("SECRET is the vectors' secret", () => expect(SECRET).toHaveLength(32));

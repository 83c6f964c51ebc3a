import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { cancelOrder } from "../../src/core/cancel-order.ts";
import { payOrder } from "../../src/core/pay-order.ts";
import { BASE, harness, type Harness, seed } from "../helpers.ts";
import { demoVerifies, hashParams, hashPost, xhHash } from "./sdk.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
  await h.gw.store.addChannel({ pid: 0, payType: "wxpay", code: "wx_qr", name: "WeChat A", qrcode: "wxp://f2f0abc", now: h.clock.now() });
});
afterEach(() => h.close());

const CREATE = "/xpay/hashpay/payment/do.html";

describe("hash protocol create", () => {
  test("the vendor demo: JSON with numbers under a form content type; response verifiable", async () => {
    const body = await hashPost(h, CREATE, hashParams(h, { trade_order_id: 1763800000, total_fee: "0.1", payment: "wechat", plugins: "my-plugins-id", attach: "a&b", lang: "zh-cn" }));
    expect(body).toMatchObject({ errcode: "0", errmsg: "" });
    expect(demoVerifies(body)).toBe(true);
    expect(body.url).toBe(`${BASE}/pay/${body.oderid}`);
    expect(body.url_qrcode).toBe(`${BASE}/qrcode?text=${encodeURIComponent("wxp://f2f0abc")}&format=png`);
    const image = await h.app.handle(new Request(body.url_qrcode.replace(BASE, "http://localhost")));
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toStartWith("image/");
    const order = await h.gw.store.getOrder(body.oderid);
    expect(order).toMatchObject({ family: "hashpay", outTradeNo: "1763800000", payType: "wxpay", amount: 10, extra: { plugins: "my-plugins-id", attach: "a&b", payment: "wechat" } });
  });

  test("form body and every route alias", async () => {
    for (const path of ["/xpay/hashpay", "/xpay/hashpay/payment/do.html", "/xpay/hupijiao", "/xpay/hupijiao/payment/do.html"]) {
      const body = await hashPost(h, path, hashParams(h, { payment: "alipay" }), "form");
      expect(body.errcode).toBe("0");
      expect((await h.gw.store.getOrder(body.oderid))?.payType).toBe("alipay");
    }
  });

  test("without payment: type WAP means wxpay; nothing means the payer picks on the cashier", async () => {
    const wap = await hashPost(h, CREATE, hashParams(h, { type: "WAP", wap_url: "shop.example", wap_name: "小店" }));
    expect((await h.gw.store.getOrder(wap.oderid))?.payType).toBe("wxpay");
    const open = await hashPost(h, CREATE, hashParams(h));
    expect(open.errcode).toBe("0");
    expect(await h.gw.store.getOrder(open.oderid)).toMatchObject({ payType: "", accountId: null, tradeAmount: null, status: 1 });
    expect(open.url_qrcode).toBe(`${BASE}/qrcode?text=${encodeURIComponent(open.url)}&format=png`);
  });

  test("field limits through the route, each failure signed", async () => {
    const cases: [Record<string, string | number>, string][] = [
      [{ version: "1.0" }, "version"],
      [{ title: "鞋".repeat(129) }, "title"],
      [{ type: "WAP", wap_url: "s.example", wap_name: "站".repeat(33) }, "wap_name"],
      [{ notify_url: "http://127.0.0.1/n?a=1&b=2" }, "&"],
      [{ total_fee: "0.001" }, "total_fee"],
      [{ total_fee: "abc" }, "total_fee"],
      [{ total_fee: "0" }, "total_fee"],
    ];
    for (const [o, word] of cases) {
      const body = await hashPost(h, CREATE, hashParams(h, o));
      expect(body.errcode).toBe("400");
      expect(body.errmsg).toContain(word);
      expect(demoVerifies(body)).toBe(true);
    }
    expect((await hashPost(h, CREATE, hashParams(h, { title: "鞋".repeat(128) }))).errcode).toBe("0");
  });

  test("tampered field and wrong secret: errcode 402 with an empty hash (nothing hashed for a stranger); unknown appid", async () => {
    const tampered = { ...hashParams(h), total_fee: "0.01" };
    const body = await hashPost(h, CREATE, tampered);
    expect(body.errcode).toBe("402");
    expect(body.errmsg).toContain("hash mismatch");
    expect(body.hash).toBe("");
    expect(demoVerifies(body)).toBe(false);
    expect(await hashPost(h, CREATE, hashParams(h, {}, "z".repeat(32)))).toMatchObject({ errcode: "402", hash: "" });
    expect(await hashPost(h, CREATE, hashParams(h, { appid: "4242" }))).toEqual({ errcode: "403", errmsg: "unknown merchant (appid)", hash: "" });
  });

  test("an authenticated caller's errors carry a verifiable hash", async () => {
    const body = await hashPost(h, CREATE, hashParams(h, { version: "1.0" }));
    expect(demoVerifies(body)).toBe(true);
    expect(body.errcode).toBe("400");
  });

  test("duplicate trade_order_id: same amount returns the same order, another amount is 409", async () => {
    const a = await hashPost(h, CREATE, hashParams(h, { trade_order_id: "DUP", total_fee: "3.00", payment: "alipay" }));
    const b = await hashPost(h, CREATE, hashParams(h, { trade_order_id: "DUP", total_fee: "3.00", payment: "alipay" }));
    expect(b.oderid).toBe(a.oderid);
    const c = await hashPost(h, CREATE, hashParams(h, { trade_order_id: "DUP", total_fee: "4.00", payment: "alipay" }));
    expect(c).toMatchObject({ errcode: "409", errmsg: expect.stringContaining("different amount") });
  });
});

describe("hash protocol query", () => {
  const QUERY = "/xpay/hashpay/payment/query.html";
  const ask = (o: Record<string, string | number>) => {
    const { trade_order_id: _t, total_fee: _f, title: _ti, notify_url: _n, version: _v, ...rest } = hashParams(h, o);
    return { ...rest, hash: xhHash(rest) };
  };
  const verifiesFlat = (b: any) => b.hash === xhHash({ errcode: b.errcode, errmsg: b.errmsg, ...b.data });

  test("WP, then OD after payment, by out_trade_order or open_order_id; CD once closed", async () => {
    const made = await hashPost(h, CREATE, hashParams(h, { trade_order_id: "Q1", total_fee: "2.50", payment: "alipay" }));
    const q1 = await hashPost(h, QUERY, ask({ out_trade_order: "Q1" }), "form");
    expect(q1).toMatchObject({ errcode: "0", errmsg: "", data: { status: "WP", open_order_id: made.oderid, out_trade_order: "Q1", total_fee: "2.50" } });
    expect(verifiesFlat(q1)).toBe(true);
    await payOrder(h.gw, made.oderid);
    const q2 = await hashPost(h, "/xpay/hupijiao/payment/query.html", ask({ open_order_id: made.oderid }));
    expect(q2.data.status).toBe("OD");
    expect(verifiesFlat(q2)).toBe(true);
    const other = await hashPost(h, CREATE, hashParams(h, { trade_order_id: "Q2", payment: "alipay" }));
    await cancelOrder(h.gw, (await h.gw.store.getOrder(other.oderid))!);
    expect((await hashPost(h, QUERY, ask({ out_trade_order: "Q2" }))).data.status).toBe("CD");
  });

  test("unknown order, missing lookup, bad hash", async () => {
    expect(await hashPost(h, QUERY, ask({ out_trade_order: "none" }))).toMatchObject({ errcode: "404" });
    expect((await hashPost(h, QUERY, ask({}))).errmsg).toContain("out_trade_order or open_order_id");
    expect((await hashPost(h, QUERY, { ...ask({ out_trade_order: "x" }), nonce_str: "changed" })).errcode).toBe("402");
  });
});

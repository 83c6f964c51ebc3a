import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { md5Sign } from "../../src/protocols/signing.ts";
import { BASE, harness, type Harness, SECRET, seed } from "../helpers.ts";
import { api, nativeOrder, pay, setOperator } from "./support.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
});
afterEach(() => h.close());

describe("POST /api/order/info", () => {
  test("every field of the spec with its type, for a pending order", async () => {
    const o = await nativeOrder(h, { name: "VIP 月卡" });
    const { res, body } = await api(h, "info", { order_id: o.trade_no });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(body).toEqual({
      subject: "VIP 月卡", out_order_id: "C1", order_id: o.trade_no, status: 1, amount: 1000, trade_amount: 1000,
      expire_time: h.clock.now() + 900, pay_type: "alipay", pay_type_text: "支付宝", create_time: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      pay_type_logo: `${BASE}/assets/pay-types/alipay.svg`, content: "", service_qq: "", pay_tip: "", pay_payed_wait_time: 3, pay_account_tip: { tip: "", tip_cover: 0 },
    });
    expect(body.return_uri).toBeUndefined();
  });

  test("finds the order by out_order_id + pid (pid as number or string)", async () => {
    const o = await nativeOrder(h);
    expect((await api(h, "info", { out_order_id: "C1", pid: 1001 })).body.order_id).toBe(o.trade_no);
    expect((await api(h, "info", { out_order_id: "C1", pid: "1001" })).body.order_id).toBe(o.trade_no);
  });

  test("takes form and query parameters too; _time is ignored", async () => {
    const o = await nativeOrder(h);
    const form = await h.app.handle(new Request("http://localhost/api/order/info?_time=1", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `order_id=${o.trade_no}` }));
    expect(((await form.json()) as any).order_id).toBe(o.trade_no);
    const query = await h.app.handle(new Request(`http://localhost/api/order/info?_time=1&order_id=${o.trade_no}`, { method: "POST" }));
    expect(((await query.json()) as any).order_id).toBe(o.trade_no);
  });

  test("a paid order carries the signed native return_uri", async () => {
    const o = await nativeOrder(h, { return_url: "https://shop.example/r" });
    await pay(h, o.trade_no);
    const { body } = await api(h, "info", { order_id: o.trade_no });
    expect(body.status).toBe(2);
    const q = Object.fromEntries(new URL(body.return_uri).searchParams);
    const { sign, ...fields } = q;
    expect(fields).toMatchObject({ trade_no: o.trade_no, out_trade_no: "C1", amount: "1000", status: "2" });
    expect(sign).toBe(md5Sign(fields, SECRET, ["sign"]));
  });

  test("a pending order past expire_time reads as timed out", async () => {
    const o = await nativeOrder(h);
    h.clock.advance(901);
    expect((await api(h, "info", { order_id: o.trade_no })).body.status).toBe(4);
  });

  test("merchant settings win over operator settings", async () => {
    await setOperator(h, { pay_tip: "运营方提示", service_qq: "10000", pay_payed_wait_time: "5", pay_account_tip: "请核对收款人", pay_account_tip_cover: "1", pay_content: "说明" });
    const o = await nativeOrder(h);
    let { body } = await api(h, "info", { order_id: o.trade_no });
    expect(body).toMatchObject({ pay_tip: "运营方提示", service_qq: "10000", pay_payed_wait_time: 5, content: "说明", pay_account_tip: { tip: "请核对收款人", tip_cover: 1 } });
    await h.gw.store.updateMerchant(1001, { settings: { pay_tip: "商户提示", service_qq: "", pay_payed_wait_time: "0" } });
    ({ body } = await api(h, "info", { order_id: o.trade_no }));
    expect(body).toMatchObject({ pay_tip: "商户提示", service_qq: "", pay_payed_wait_time: 0 });
  });
});

describe("lookup errors: {code, message, data} with HTTP status = code", () => {
  for (const name of ["info", "status", "audio"]) {
    test(`${name}: unknown order 404, missing keys 400, out_order_id without pid 400`, async () => {
      const cases: [unknown, number][] = [
        [{ order_id: "20990101000000000000" }, 404],
        [{ order_id: "<script>" }, 404],
        [{ out_order_id: "nope", pid: 1001 }, 404],
        [{ out_order_id: "C1", pid: 9999 }, 404],
        [{}, 400],
        [{ out_order_id: "C1" }, 400],
        [{ out_order_id: "C1", pid: "abc" }, 400],
        [{ order_id: { nested: 1 } }, 400],
      ];
      await nativeOrder(h);
      for (const [body, code] of cases) {
        const r = await api(h, name, body);
        expect(r.res.status).toBe(code);
        expect(r.res.headers.get("content-type")).toBe("application/json; charset=utf-8");
        expect(r.body).toEqual({ code, message: expect.any(String), data: null });
        expect(r.body.message.length).toBeGreaterThan(0);
      }
    });
  }

  test("a body that is not JSON is a 400, never a 500", async () => {
    const res = await h.app.handle(new Request("http://localhost/api/order/info", { method: "POST", headers: { "content-type": "application/json" }, body: "{oops" }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).code).toBe(400);
  });
});

describe("POST /api/order/status", () => {
  test("pending, then paid with return_uri", async () => {
    const o = await nativeOrder(h, { return_url: "https://shop.example/r" });
    let { body } = await api(h, "status", { order_id: o.trade_no });
    expect(body).toEqual({ status: 1, expire_time: h.clock.now() + 900, is_auto_open: 0, pay_payed_wait_time: 3 });
    await pay(h, o.trade_no);
    ({ body } = await api(h, "status", { out_order_id: "C1", pid: 1001 }));
    expect(body.status).toBe(2);
    expect(body.return_uri).toStartWith("https://shop.example/r?");
    expect(body.is_auto_open).toBe(0);
  });

  test("is_auto_open only for an account with a scheme and a phone", async () => {
    await h.gw.store.addChannel({ pid: 1001, payType: "wxpay", code: "wx", name: "WX", qrcode: "wxp://f2f0abc", scheme: "weixin://scan", now: h.clock.now() });
    const o = await nativeOrder(h, { pay_type: "wxpay" });
    const phone = { "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148" };
    const desk = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/120" };
    const ask = async (headers: Record<string, string>, id = o.trade_no) => (await api(h, "status", { order_id: id }, headers)).body.is_auto_open;
    expect(await ask(phone)).toBe(1);
    expect(await ask(desk)).toBe(0);
    const alipay = await nativeOrder(h, { out_trade_no: "C2" }); // its account has no scheme
    expect(await ask(phone, alipay.trade_no)).toBe(0);
  });
});

describe("POST /api/order/audio", () => {
  test("disabled by default", async () => {
    const o = await nativeOrder(h);
    expect((await api(h, "audio", { order_id: o.trade_no })).body).toEqual({ audio_enable: 0, audio_url: "", audio_content: "" });
  });

  test("renders every placeholder; audio_url placeholders are URL-encoded", async () => {
    await setOperator(h, {
      audio_enable: "1",
      audio_content: "{{subject}} 请用{{pay_type}}支付{{trade_amount}}元（订单{{amount}}元）{{order_id}} {{out_order_id}} {{unknown}}",
      audio_url: "https://tts.example/speak?t={{content}}&a={{trade_amount}}",
    });
    const o = await nativeOrder(h, { name: "A&B" });
    const { body } = await api(h, "audio", { order_id: o.trade_no });
    const content = `A&B 请用支付宝支付10.00元（订单10.00元）${o.trade_no} C1 {{unknown}}`;
    expect(body).toEqual({ audio_enable: 1, audio_url: `https://tts.example/speak?t=${encodeURIComponent(content)}&a=10.00`, audio_content: content });
  });
});

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { payOrder } from "../../src/core/pay-order.ts";
import { BASE, harness, type Harness, seed } from "../helpers.ts";
import { newMerchantKeys, platformPublicBase64, post, type SdkKeys, sdkVerify, v2Params } from "./sdk.ts";

let h: Harness;
let keys: SdkKeys;
let platform: string;
beforeEach(async () => {
  h = harness();
  await seed(h);
  keys = newMerchantKeys();
  await h.gw.store.updateMerchant(1001, { rsaPublicKey: keys.merchantPublic });
  platform = await platformPublicBase64(h);
});
afterEach(() => h.close());

/** A response as the SDK takes it: verified over exactly its fields, or the test fails. */
async function verified(res: Response): Promise<any> {
  const body = (await res.json()) as Record<string, unknown>;
  expect(Object.values(body).every((v) => typeof v === "string" || typeof v === "number")).toBe(true);
  expect(body.sign_type).toBe("RSA");
  expect(sdkVerify(body, platform, h.clock.now())).toBe(true);
  return body;
}

/** A refusal to a caller who did not authenticate: `{code: -1, msg}` and nothing signed. */
async function unsigned(res: Response): Promise<any> {
  const body = (await res.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(["code", "msg"]);
  expect(body.code).toBe(-1);
  return body;
}

describe("epay V2 create", () => {
  test("code 0, trade_no, pay_type/pay_info; verifiable over exactly its fields (form and JSON)", async () => {
    const body = await verified(await post(h, "create", v2Params(h, keys, { out_trade_no: "C1", money: "1.50", method: "web", device: "pc" })));
    expect(body).toMatchObject({ code: 0, msg: "success", pay_type: "qrcode", pay_info: "https://qr.alipay.com/fkx0001" });
    expect(Object.keys(body).sort()).toEqual(["code", "msg", "pay_info", "pay_type", "sign", "sign_type", "timestamp", "trade_no"]);
    expect((await h.gw.store.getOrder(body.trade_no))).toMatchObject({ family: "epay-v2", amount: 150, extra: { method: "web" } });
    const jump = await verified(await post(h, "create", v2Params(h, keys, { out_trade_no: "C2", method: "jump" }), "json"));
    expect(jump).toMatchObject({ code: 0, pay_type: "jump", pay_info: `${BASE}/pay/${jump.trade_no}` });
  });

  test("refusals before authentication are code -1 with msg and never signed: tampered, wrong key, unknown pid, no key", async () => {
    const tampered = { ...v2Params(h, keys), money: "0.01" };
    expect(await unsigned(await post(h, "create", tampered))).toMatchObject({ code: -1, msg: expect.stringContaining("signature mismatch") });
    const other = newMerchantKeys();
    expect((await unsigned(await post(h, "create", v2Params(h, other)))).msg).toContain("signature mismatch");
    expect((await unsigned(await post(h, "create", v2Params(h, keys, { pid: 4242 })))).msg).toBe("unknown merchant (pid)");
    await h.gw.store.updateMerchant(1001, { rsaPublicKey: null });
    expect((await unsigned(await post(h, "create", v2Params(h, keys)))).msg).toContain("no RSA public key");
  });

  test("key=value text after an ampersand in a signed order field is refused; a plain ampersand is fine", async () => {
    for (const field of ["name", "param", "out_trade_no", "clientip"]) {
      const body = await verified(await post(h, "create", v2Params(h, keys, { [field]: "x&trade_status=TRADE_SUCCESS" })));
      expect(body).toMatchObject({ code: -1, msg: expect.stringContaining(`${field} must not contain an ampersand`) });
    }
    expect((await verified(await post(h, "create", v2Params(h, keys, { name: "Tom & Jerry", param: "a=1&b" })))).code).toBe(0);
  });

  test("PEM public key works as well as bare Base64", async () => {
    const pem = `-----BEGIN PUBLIC KEY-----\n${keys.merchantPublic.match(/.{1,64}/g)!.join("\n")}\n-----END PUBLIC KEY-----\n`;
    await h.gw.store.updateMerchant(1001, { rsaPublicKey: pem });
    expect((await verified(await post(h, "create", v2Params(h, keys)))).code).toBe(0);
  });

  test("stale, future, missing and malformed timestamp", async () => {
    // A stale or future request may be a replay: the caller is not authenticated, nothing is signed.
    expect((await unsigned(await post(h, "create", v2Params(h, keys, { timestamp: h.clock.now() - 301 })))).msg).toContain("outside the allowed window");
    expect((await unsigned(await post(h, "create", v2Params(h, keys, { timestamp: h.clock.now() + 301 })))).msg).toContain("outside the allowed window");
    expect((await verified(await post(h, "create", v2Params(h, keys, { timestamp: h.clock.now() - 299 })))).code).toBe(0);
    expect((await unsigned(await post(h, "create", v2Params(h, keys, { timestamp: "" })))).msg).toBe("missing parameter: timestamp");
    expect((await unsigned(await post(h, "create", v2Params(h, keys, { timestamp: h.clock.nowMs() })))).msg).toContain("timestamp");
  });

  test("bad money, duplicate out_trade_no, unsupported method", async () => {
    expect((await unsigned(await post(h, "create", v2Params(h, keys, { money: "1.001" })))).msg).toContain("money");
    const a = await verified(await post(h, "create", v2Params(h, keys, { out_trade_no: "D1", money: "2.00" })));
    const b = await verified(await post(h, "create", v2Params(h, keys, { out_trade_no: "D1", money: "2.00" })));
    expect(b.trade_no).toBe(a.trade_no);
    expect((await verified(await post(h, "create", v2Params(h, keys, { out_trade_no: "D1", money: "3.00" })))).msg).toContain("different amount");
    expect((await verified(await post(h, "create", v2Params(h, keys, { method: "scan", auth_code: "123" })))).msg).toContain("scan");
  });
});

describe("epay V2 submit", () => {
  test("302 to the cashier; without type the order waits for the payer's pick", async () => {
    const res = await h.app.handle(new Request(`http://localhost/xpay/epayn/api/pay/submit?${new URLSearchParams(v2Params(h, keys, { type: "", out_trade_no: "S1" }))}`));
    expect(res.status).toBe(302);
    const tradeNo = res.headers.get("location")!.replace(`${BASE}/pay/`, "");
    expect(await h.gw.store.getOrder(tradeNo)).toMatchObject({ payType: "", accountId: null, tradeAmount: null, status: 1, family: "epay-v2" });
    const posted = await post(h, "submit", v2Params(h, keys, { out_trade_no: "S2" }));
    expect(posted.status).toBe(302);
  });

  test("errors are an HTML page", async () => {
    const res = await post(h, "submit", { ...v2Params(h, keys), name: "x" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("signature mismatch");
  });
});

describe("epay V2 query", () => {
  test("by trade_no or out_trade_no; status 1 then 2; legacy style 0/1", async () => {
    const made = await verified(await post(h, "create", v2Params(h, keys, { out_trade_no: "Q1", money: "4.00", param: "x y" })));
    const q1 = await verified(await post(h, "query", v2Params(h, keys, { trade_no: made.trade_no, type: "", out_trade_no: "", notify_url: "", return_url: "", name: "", money: "" })));
    expect(q1).toMatchObject({ code: 0, trade_no: made.trade_no, out_trade_no: "Q1", type: "alipay", status: 1, money: "4.00", name: "VIP", param: "x y" });
    await payOrder(h.gw, made.trade_no, { apiTradeNo: "ALI123", buyer: "buyer@x" });
    const q2 = await verified(await post(h, "query", v2Params(h, keys, { out_trade_no: "Q1", type: "", notify_url: "", return_url: "", name: "", money: "" })));
    expect(q2).toMatchObject({ status: 2, api_trade_no: "ALI123", buyer: "buyer@x" });
    await h.gw.store.setSetting("epay_status_style", "legacy");
    h.gw.forgetSettings();
    const q3 = await verified(await post(h, "query", v2Params(h, keys, { out_trade_no: "Q1", type: "", notify_url: "", return_url: "", name: "", money: "" })));
    expect(q3.status).toBe(1);
  });

  test("unknown order and missing lookup are signed failures", async () => {
    const none = { type: "", notify_url: "", return_url: "", name: "", money: "" };
    expect(await verified(await post(h, "query", v2Params(h, keys, { ...none, out_trade_no: "nope" })))).toMatchObject({ code: -1, msg: "order not found" });
    expect((await verified(await post(h, "query", v2Params(h, keys, { ...none, out_trade_no: "" })))).msg).toContain("trade_no or out_trade_no");
  });
});

describe("epay V2 unimplemented routes", () => {
  test.each(["refund", "refundquery", "transfer", "transfer/query", "balance"])("%s answers Not implemented", async (name) => {
    const res = await post(h, name, v2Params(h, keys));
    expect(await res.text()).toBe("Not implemented");
    expect(res.status).toBe(501);
  });
});

// A merchant that verifies the plain-PHP way, with no framework and no filtering: every field it
// received, empty or not, through md5(urldecode(http_build_query(ksort'ed fields)) . key) (V2: the
// same text with openssl_verify and the platform key). xpay used to send an empty `param=` (and V2
// empty `api_trade_no=`, `buyer=`), which such a receiver signs and so refuses every notification.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createPublicKey, createVerify } from "node:crypto";
import { returnUri } from "../../src/core/pay-order.ts";
import { postJson, type Harness, nativeCreate, SECRET } from "../helpers.ts";
import { call, v1Params } from "../epay-v1/sdk.ts";
import { newMerchantKeys, platformPublicBase64, post, v2Params } from "../epay-v2/sdk.ts";
import { hashParams, hashPost } from "../hashpay/sdk.ts";
import { panelGateway, payAndDeliver } from "./flow.ts";
import { httpBuildQuery, ksort, md5, phpGet, plainPhpVerify, urldecode } from "./php.ts";
import { type PanelSite, startPanelSite } from "./site.ts";

let h: Harness;
let site: PanelSite;
beforeEach(async () => {
  h = await panelGateway();
  site = startPanelSite(() => ({ body: "success" }));
});
afterEach(() => {
  site.stop();
  h.close();
});

const returnQuery = async (tradeNo: string) => {
  const url = (await returnUri(h.gw, (await h.gw.store.getOrder(tradeNo))!))!;
  return url.slice(url.indexOf("?") + 1);
};

/** The MD5 one-liner over a POST body ($_POST), the signature field named `field`. */
function plainPhpVerifyPost(body: string, field: string): boolean {
  const p = phpGet(body);
  const sign = p[field];
  delete p[field];
  return sign === md5(urldecode(httpBuildQuery(ksort(p))) + SECRET);
}

describe("epay V1 notification and return link", () => {
  for (const [label, extra] of [["no param", {}], ["param given", { param: "uid=7 x+y" }], ["name with spaces and +", { name: "商品 A+B" }]] as const) {
    test(`${label}: verified by the one-liner over every field received`, async () => {
      const made = (await (await call(h, "POST", "/xpay/epay/mapi.php", v1Params({ notify_url: `${site.origin}/notify.php`, ...extra }))).json()) as any;
      expect(made.code).toBe(1);
      await payAndDeliver(h, made.trade_no);
      await site.waitFor(1);
      const query = site.hits[0]!.query;
      expect(plainPhpVerify(query, SECRET)).toBe(true);
      expect(Object.values(phpGet(query))).not.toContain("");
      expect(plainPhpVerify(await returnQuery(made.trade_no), SECRET)).toBe(true);
    });
  }
});

describe("epay V2 notification and return link", () => {
  test("no empty field: openssl_verify over every field received holds", async () => {
    const keys = newMerchantKeys();
    await h.gw.store.updateMerchant(1001, { rsaPublicKey: keys.merchantPublic });
    const pub = createPublicKey({ key: Buffer.from(await platformPublicBase64(h), "base64"), format: "der", type: "spki" });
    const verify = (query: string) => {
      const p = phpGet(query);
      const sign = p.sign!;
      delete p.sign;
      delete p.sign_type;
      return createVerify("RSA-SHA256").update(urldecode(httpBuildQuery(ksort(p))), "utf8").verify(pub, sign, "base64");
    };
    const made = (await (await post(h, "create", v2Params(h, keys, { notify_url: `${site.origin}/notify.php` }))).json()) as any;
    expect(made.code).toBe(0);
    await payAndDeliver(h, made.trade_no); // no api_trade_no, no buyer, no param
    await site.waitFor(1);
    const query = site.hits[0]!.query;
    expect(phpGet(query)).not.toHaveProperty("api_trade_no");
    expect(verify(query)).toBe(true);
    expect(verify(await returnQuery(made.trade_no))).toBe(true);
  });
});

describe("native and hash notifications", () => {
  test("native (POST form): an empty param is left out; the one-liner over $_POST holds", async () => {
    const { body } = await postJson(h, "/xpay/order/create", nativeCreate({ notify_url: `${site.origin}/notify.php`, return_url: `${site.origin}/back` }));
    expect(body.code).toBe(200);
    await payAndDeliver(h, body.data.trade_no);
    await site.waitFor(1);
    const hit = site.hits[0]!;
    expect(hit.method).toBe("POST");
    expect(phpGet(hit.body)).not.toHaveProperty("param");
    expect(plainPhpVerifyPost(hit.body, "sign")).toBe(true);
    const back = phpGet(await returnQuery(body.data.trade_no));
    expect(back).not.toHaveProperty("param");
  });

  test("hash (POST form): every field it sends has a value; the one-liner over $_POST holds", async () => {
    const made = await hashPost(h, "/xpay/hashpay", hashParams(h, { payment: "alipay", notify_url: `${site.origin}/notify.php` }));
    expect(made.errcode).toBe("0");
    await payAndDeliver(h, made.oderid);
    await site.waitFor(1);
    expect(plainPhpVerifyPost(site.hits[0]!.body, "hash")).toBe(true);
  });
});

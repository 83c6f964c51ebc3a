// A signed return link or notification cannot be re-cut (issue 27 item 2). A shop puts the text a
// payer typed (a game account, say) into `name`; the payer types `x&out_trade_no=B&param=z`, pays
// order A, takes A's signed return link from the public /api/order/info and regroups its fields:
// the same signed text now reads "B paid". The first half of each family's test shows the attack
// on an order stored with such a name (as every MD5 family's create accepted it); the second half
// shows the create refused now, in the family's own shape, with nothing of the value echoed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { ruleFor } from "../../src/core/create-order.ts";
import { newTradeNo } from "../../src/core/ids.ts";
import { payOrder } from "../../src/core/pay-order.ts";
import type { Family } from "../../src/core/types.ts";
import { type Harness, harness, nativeCreate, postJson, seed, SECRET } from "../helpers.ts";
import { call, v1Params } from "../epay-v1/sdk.ts";
import { newMerchantKeys, post, type SdkKeys, v2Params } from "../epay-v2/sdk.ts";
import { hashParams, hashPost, xhHash } from "../hashpay/sdk.ts";
import { get, KEY, md5 as vmqMd5, seedVmq } from "../vmq/clients.ts";
import { canonical, forge } from "./forge.ts";

const md5 = (s: string) => createHash("md5").update(s, "utf8").digest("hex");

/** What each family's merchant SDK checks: the canonical text of the received fields + secret. */
const FAMILIES: { family: Family; excluded: string[]; signField: string; hostile: string; want: Record<string, string> }[] = [
  { family: "native", excluded: ["sign"], signField: "sign", hostile: "x&out_trade_no=B&param=z", want: { out_trade_no: "B", status: "2" } },
  { family: "epay-v1", excluded: ["sign", "sign_type"], signField: "sign", hostile: "x&out_trade_no=B&param=z", want: { out_trade_no: "B", trade_status: "TRADE_SUCCESS" } },
  // The hash fields sort differently: the title runs up to the order id and absorbs the rest.
  { family: "hashpay", excluded: ["hash"], signField: "hash", hostile: "x&status=OD&time=1&total_fee=1.00&trade_order_id=B&transaction_id=z", want: { trade_order_id: "B", status: "OD" } },
];

let h: Harness;
let keys: SdkKeys;
beforeAll(async () => {
  h = harness();
  await seedVmq(h);
  keys = newMerchantKeys();
  await h.gw.store.updateMerchant(1001, { rsaPublicKey: keys.merchantPublic });
});
afterAll(() => h.close());

/** Order A as the store keeps it when a create accepts the name: allocated, then paid. */
async function paidOrderNamed(family: Family, name: string, outTradeNo: string) {
  const now = h.clock.now();
  const order = { pid: 1001, outTradeNo, family, payType: "alipay", name, amount: 100, notifyUrl: "", returnUrl: "https://shop.example/return", param: "", clientip: "", device: "pc", extra: {} };
  const made = await h.gw.store.createOrder({
    order, newTradeNo: () => newTradeNo(h.clock.nowMs()), now, expireTime: now + 900,
    onExisting: () => ({ kind: "return" }), allocate: ruleFor(order, now, await h.gw.settings()),
  });
  if (made.kind === "error") throw new Error(made.reason);
  await payOrder(h.gw, made.order.tradeNo);
  return made.order.tradeNo;
}

describe("the attack, on an order that holds the payer's text", () => {
  for (const f of FAMILIES) {
    test(`${f.family}: A's signed return link from /api/order/info re-cuts into a valid "B paid"`, async () => {
      const tradeNo = await paidOrderNamed(f.family, f.hostile, `A-${f.family}`);
      const info = await postJson(h, "/api/order/info", { order_id: tradeNo });
      const link = new URL(info.body.return_uri as string);
      const fields = Object.fromEntries(link.searchParams);
      const text = canonical(fields, f.excluded);
      // The link is genuine: the merchant's check passes on it as sent.
      expect(md5(text + SECRET)).toBe(fields[f.signField]!);
      const forged = forge(text, f.want);
      expect(forged).toMatchObject(f.want);
      // Same signed text, other fields: the merchant's own check accepts the forgery as order B.
      expect(canonical(forged!, f.excluded)).toBe(text);
      expect(md5(canonical(forged!, f.excluded) + SECRET)).toBe(fields[f.signField]!);
    });
  }
});

describe("now: the create is refused in each family's shape, the value never echoed", () => {
  const HOSTILE = "x&out_trade_no=B&param=z";
  const said = (text: string) => {
    expect(text).toContain("must not contain an ampersand followed by key= text");
    expect(text).not.toContain("out_trade_no=B");
  };

  test("native create and create-page", async () => {
    for (const field of ["name", "param"]) {
      const r = await postJson(h, "/xpay/order/create", nativeCreate({ [field]: HOSTILE }));
      expect(r.body).toMatchObject({ code: 400, data: null });
      said(r.body.msg);
    }
    const page = await h.app.handle(new Request("http://localhost/xpay/order/create-page", { method: "POST", body: new URLSearchParams(nativeCreate({ name: HOSTILE })) }));
    expect(page.status).toBe(400);
    said(await page.text());
  });

  test("V1 submit.php (HTML error page) and mapi.php ({code:-1,msg})", async () => {
    const page = await call(h, "GET", "/xpay/epay/submit.php", v1Params({ name: HOSTILE }));
    expect(page.status).toBe(400);
    said(await page.text());
    const mapi = (await (await call(h, "POST", "/xpay/epay/mapi.php", v1Params({ param: HOSTILE }))).json()) as any;
    expect(mapi.code).toBe(-1);
    said(mapi.msg);
  });

  test("hash create: errcode 400, the hashed reply carries fixed text only (no oracle)", async () => {
    for (const o of [{ title: FAMILIES[2]!.hostile }, { attach: HOSTILE }] as Record<string, string>[]) {
      const body = await hashPost(h, "/xpay/hashpay", hashParams(h, o));
      expect(body.errcode).toBe("400");
      said(body.errmsg);
      expect(body.hash).toBe(xhHash(body));
      expect(forge(canonical(body, ["hash"]), { trade_order_id: "B", status: "OD" })).toBeNull();
    }
  });

  test("V2 create and submit, and V免签 createOrder, go through the same rule", async () => {
    const v2 = (await (await post(h, "create", v2Params(h, keys, { name: HOSTILE }))).json()) as any;
    expect(v2.code).toBe(-1);
    said(v2.msg);
    const submit = await post(h, "submit", v2Params(h, keys, { param: HOSTILE }));
    expect(submit.status).toBe(400);
    said(await submit.text());
    const sign = vmqMd5(`P1${HOSTILE}2` + "10" + KEY);
    const vmq = await get(h, `http://localhost/createOrder?${new URLSearchParams({ payId: "P1", param: HOSTILE, type: "2", price: "10", sign })}`);
    expect(vmq.body.code).toBe(-1);
    said(vmq.body.msg);
  });

  test("a plain ampersand stays allowed in every family (SDKs send 商品+&x)", async () => {
    expect((await postJson(h, "/xpay/order/create", nativeCreate({ name: "商品 &x", param: "Tom & Jerry" }))).body.code).toBe(200);
    expect(((await (await call(h, "POST", "/xpay/epay/mapi.php", v1Params({ name: "商品 &x" }))).json()) as any).code).toBe(1);
    expect((await hashPost(h, "/xpay/hashpay", hashParams(h, { title: "商品 &x" }))).errcode).toBe("0");
    expect(((await (await post(h, "create", v2Params(h, keys, { name: "商品 &x" }))).json()) as any).code).toBe(0);
  });
});

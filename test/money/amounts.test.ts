// Issue 21: a 3-decimal amount is refused by every family's create, not only by money.ts's unit
// test; each case first shows the same request with a 2-decimal amount creates an order, so a
// refusal for any other reason cannot pass for this one. The cashier takes no amounts.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { formatYuan, MAX_CENTS, parseCents, parseYuan } from "../../src/core/money.ts";
import { harness, type Harness, nativeCreate, postForm, postJson, seed } from "../helpers.ts";
import { call, v1Params } from "../epay-v1/sdk.ts";
import { newMerchantKeys, post, type SdkKeys, v2Params } from "../epay-v2/sdk.ts";
import { hashParams, hashPost } from "../hashpay/sdk.ts";

const VMQ_KEY = "4b5a3c2d1e0f9a8b7c6d5e4f3a2b1c0d";
let h: Harness;
const keys: SdkKeys = newMerchantKeys();
beforeEach(async () => {
  h = harness();
  await seed(h);
  await h.gw.store.updateMerchant(1001, { rsaPublicKey: keys.merchantPublic });
  await h.gw.store.addKeyedClient({ kind: "vmq", pid: 1001, name: "phone1", key: VMQ_KEY, accountIds: [], now: h.clock.now() });
});
afterEach(() => h.close());

const orders = async () => (await h.gw.store.listOrders({})).length;

/** Each family's create: sends `money`, resolves to what the caller saw. */
const creates: [string, (money: string) => Promise<{ ok: boolean; text: string }>][] = [
  ["native create", async (money) => {
    const { body } = await postJson(h, "/xpay/order/create", nativeCreate({ money }));
    return { ok: body.code === 200, text: JSON.stringify(body) };
  }],
  ["native create-page", async (money) => {
    const res = await postForm(h, "/xpay/order/create-page", nativeCreate({ money }));
    return { ok: res.status === 302, text: await res.text() };
  }],
  ["epay V1 submit.php GET", async (money) => {
    const res = await call(h, "GET", "/xpay/epay/submit.php", v1Params({ money }));
    return { ok: res.status === 302, text: await res.text() };
  }],
  ["epay V1 submit.php POST", async (money) => {
    const res = await call(h, "POST", "/xpay/epay/submit.php", v1Params({ money }));
    return { ok: res.status === 302, text: await res.text() };
  }],
  ["epay V1 mapi.php", async (money) => {
    const body = (await (await call(h, "POST", "/xpay/epay/mapi.php", v1Params({ money }))).json()) as any;
    return { ok: body.code === 1, text: JSON.stringify(body) };
  }],
  ["epay V2 create", async (money) => {
    const body = (await (await post(h, "create", v2Params(h, keys, { money }))).json()) as any;
    return { ok: body.code === 0, text: JSON.stringify(body) };
  }],
  ["epay V2 submit", async (money) => {
    const res = await post(h, "submit", v2Params(h, keys, { money }));
    return { ok: res.status === 302, text: await res.text() };
  }],
  ["V免签 createOrder", async (money) => {
    const payId = `P${Math.random().toString(36).slice(2)}`;
    const sign = createHash("md5").update(`${payId}2${money}${VMQ_KEY}`).digest("hex");
    const body = (await (await h.app.handle(new Request(`http://localhost/createOrder?payId=${payId}&type=2&price=${money}&sign=${sign}`))).json()) as any;
    return { ok: body.code === 1, text: JSON.stringify(body) };
  }],
  ["hash create", async (money) => {
    const body = await hashPost(h, "/xpay/hashpay/payment/do.html", hashParams(h, { total_fee: money, payment: "alipay" }));
    return { ok: String(body.errcode) === "0", text: JSON.stringify(body) };
  }],
];

describe("a 3-decimal amount through every family's create", () => {
  for (const [name, create] of creates) {
    test(name, async () => {
      const good = await create("10.00");
      expect(good).toMatchObject({ ok: true });
      const before = await orders();
      for (const money of ["10.001", "0.001", "9.999"]) {
        const bad = await create(money);
        expect(bad.ok).toBe(false);
        expect(bad.text).toMatch(/money|total_fee|金额格式错误/);
      }
      expect(await orders()).toBe(before);
    });
  }
});

describe("money rules", () => {
  test("yuan: numbers, bounds, and anything not a string or number", () => {
    expect(parseYuan(10.5)).toBe(1050);
    expect(parseYuan("0.01")).toBe(1);
    expect(parseYuan("99999999.99")).toBe(MAX_CENTS);
    expect(parseYuan("1.05")).toBe(105);
    expect(parseYuan("1.5")).toBe(150);
    expect(parseYuan("12")).toBe(1200);
    for (const x of [null, undefined, true, {}, [], 10.001, 0, -1, "0.001", "1.999", "a1.00", "1.00a", "1,00"]) expect(parseYuan(x)).toBeNull();
    // A JSON body may carry an array or object where a string belongs: never read through it.
    for (const x of [["1.00"], { toString: () => "1.00" }]) expect(parseYuan(x)).toBeNull();
  });

  test("formatting: two decimals, zero and negative amounts", () => {
    expect(formatYuan(0)).toBe("0.00");
    expect(formatYuan(5)).toBe("0.05");
    expect(formatYuan(1050)).toBe("10.50");
    expect(formatYuan(-1)).toBe("-0.01");
    expect(formatYuan(-1050)).toBe("-10.50");
    expect(formatYuan(MAX_CENTS)).toBe("99999999.99");
  });

  test("integer cents: digits only, up to the maximum", () => {
    expect(parseCents(0)).toBe(0);
    expect(parseCents(42)).toBe(42);
    expect(parseCents("0")).toBe(0);
    expect(parseCents("007")).toBe(7);
    expect(parseCents(String(MAX_CENTS))).toBe(MAX_CENTS);
    for (const x of [String(MAX_CENTS + 1), "99999999999", "123456789012", "", " 1", "1 ", "1.0", "-1", "+1", null, undefined, 1.5, -1, {}, ["12"], { toString: () => "12" }]) expect(parseCents(x)).toBeNull();
  });
});

// Known answers for every V免签 signature (md5 of the plain concatenation + key, lowercase hex),
// each written out literally (computed with `printf '%s' TEXT"$KEY" | md5sum`) and recomputed
// here with node:crypto from the documented field order, never with the gateway's own helpers;
// then the Java Double.toString price reader, value by value.
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import type { Order } from "../../src/core/types.ts";
import { clientBySign, closeText, createText, heartText, notificationFields, paidText, pushText, returnFields, vmqSign, withPaidSign } from "../../src/protocols/vmq/codec.ts";
import { parseAppPrice } from "../../src/protocols/vmq/price.ts";

const KEY = "4b5a3c2d1e0f9a8b7c6d5e4f3a2b1c0d";
const md5 = (s: string) => createHash("md5").update(s, "utf8").digest("hex");

// [what, the gateway's text builder, the documented concatenation, literal md5]
const VECTORS: [string, string, string, string][] = [
  ["appHeart / getState md5(t + key)", heartText("1767225600123"), "1767225600123", "08874f115f7755d905841651acfa960d"],
  ["appPush md5(type + price + t + key)", pushText("2", "10.0", "1767225600123"), "2" + "10.0" + "1767225600123", "948aa3d076985776f800707d595b8cd7"],
  ["appPush, exponent price", pushText("1", "1.0E7", "1767225600123"), "1" + "1.0E7" + "1767225600123", "17ad84afce59d101082db0f7a7915eb2"],
  ["createOrder md5(payId + param + type + price + key)", createText("20260101080000123", "ORD-42", "2", "10"), "20260101080000123" + "ORD-42" + "2" + "10", "9f0005753b12a813668959b344b2e794"],
  ["createOrder, empty param", createText("20260101080000123", "", "2", "10.5"), "20260101080000123" + "" + "2" + "10.5", "1790287d6979edb9ca5a6b75da67d761"],
  ["closeOrder md5(orderId + key)", closeText("20260101080000123456"), "20260101080000123456", "5f81d98a1e074f0ca0e3be1546119be6"],
  [
    "notification md5(payId + param + type + price + reallyPrice + key)",
    paidText({ payId: "20260101080000123", param: "ORD-42", type: "2", price: "10", reallyPrice: "9.99" }),
    "20260101080000123" + "ORD-42" + "2" + "10" + "9.99",
    "8583071c9fa4ef732b94cd0df86332f8",
  ],
  [
    "return URL, two-decimal amounts",
    paidText({ payId: "20260101080000123", param: "ORD-42", type: "2", price: "10.00", reallyPrice: "9.99" }),
    "20260101080000123" + "ORD-42" + "2" + "10.00" + "9.99",
    "f4470b60dca7fd14a8d3ac88c0712c05",
  ],
];

describe("V免签 signatures: known answers", () => {
  for (const [what, text, documented, hex] of VECTORS) {
    test(what, () => {
      expect(text).toBe(documented);
      expect(md5(documented + KEY)).toBe(hex);
      expect(vmqSign(text, KEY)).toBe(hex);
    });
  }

  const order = {
    tradeNo: "20260101080000123456", outTradeNo: "20260101080000123", param: "ORD-42", payType: "alipay",
    amount: 1000, tradeAmount: 999, extra: { vmq_client: "1", vmq_price: "10" },
  } as unknown as Order;

  test("the notification carries the shop's own price text and signs it", () => {
    const signed = withPaidSign(notificationFields(order), KEY);
    expect(signed).toEqual({ payId: "20260101080000123", param: "ORD-42", type: "2", price: "10", reallyPrice: "9.99", sign: "8583071c9fa4ef732b94cd0df86332f8" });
  });

  test("the return URL writes both amounts with two decimals", () => {
    expect(withPaidSign(returnFields(order), KEY).sign).toBe("f4470b60dca7fd14a8d3ac88c0712c05");
  });

  test("a request is attributed to the client whose key verifies it, and to none otherwise", () => {
    const clients = [{ id: 1, key: "other-key-000000000000000000000" }, { id: 2, key: KEY }];
    expect(clientBySign(clients, "1767225600123", "08874f115f7755d905841651acfa960d")?.id).toBe(2);
    expect(clientBySign(clients, "1767225600123", "08874F115F7755D905841651ACFA960D")?.id).toBe(2);
    expect(clientBySign(clients, "1767225600124", "08874f115f7755d905841651acfa960d")).toBeNull();
    for (const bad of [undefined, "", "x".repeat(32), "08874f115f7755d905841651acfa960", "08874f115f7755d905841651acfa960d0"]) {
      expect(clientBySign(clients, "1767225600123", bad)).toBeNull();
    }
  });
});

describe("the app's price: Java Double.toString text, read exactly to cents", () => {
  const accepted: [string, number][] = [
    ["10.0", 1000], ["0.1", 10], ["0.01", 1], ["9.99", 999], ["1234.5", 123450], ["99.9", 9990], ["10", 1000], ["10.50", 1050],
    ["1.0E7", 1_000_000_000], ["1.2345678E7", 1_234_567_800], ["1.23456789E7", 1_234_567_890], ["9.99999999E7", 9_999_999_990], ["1.234567891E7", 1_234_567_891], ["9.999999999E7", 9_999_999_999],
    ["1.5E1", 1500], ["1.0E-2", 1], ["5.0E-1", 50],
  ];
  for (const [text, cents] of accepted) test(`${text} -> ${cents} cents`, () => expect(parseAppPrice(text)).toBe(cents));

  const refused = [
    "", "abc", "0", "0.0", "0.00", "-10.0", "+10.0", "10.001", "0.001", "1.0E-4", "1.2345678912E7", "1.0E8", "1.0E308", "99999999999.0", "1e7", "1.0e7",
    "NaN", "Infinity", "-Infinity", " 10.0", "10.0 ", "10,0", "0x10", "010.0", "10.", ".5", "1.0E", "1.0E+7", "10.0E1", "1.0E7.0", "１０.0",
  ];
  for (const text of refused) test(`refuses ${JSON.stringify(text)}`, () => expect(parseAppPrice(text)).toBeNull());
});

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { orderQr, printOrderQr, terminalQr } from "../../src/cli/order-qr.ts";
import { harness, type Harness, seed } from "../helpers.ts";
import { nativeOrder, untypedOrder } from "./support.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
});
afterEach(() => h.close());

describe("xpay order inspect --qr", () => {
  test("draws a QR of half-block characters", () => {
    const art = terminalQr("https://qr.alipay.com/fkx0001");
    const rows = art.trimEnd().split("\n");
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(40); // fits a terminal
    expect(art).toMatch(/[\u2580\u2584\u2588]/);
  });

  test("an allocated order shows the account's code and the exact amount", async () => {
    await nativeOrder(h, { out_trade_no: "C0" });
    const o = (await h.gw.store.getOrder((await nativeOrder(h)).trade_no))!;
    expect(await orderQr(h.gw, o)).toEqual({ text: "https://qr.alipay.com/fkx0001", caption: expect.stringContaining("pay exactly ¥9.99 with alipay") });
    const lines: string[] = [];
    await printOrderQr(h.gw, o, (l) => lines.push(l));
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe("https://qr.alipay.com/fkx0001");
  });

  test("an order without a pay type shows its cashier URL; an ended order says so", async () => {
    const o = await untypedOrder(h);
    const qr = await orderQr(h.gw, o);
    expect(qr.text).toBe(`http://127.0.0.1:8080/pay/${o.tradeNo}`);
    h.clock.advance(901);
    expect((await orderQr(h.gw, o)).caption).toContain("not payable now");
  });
});

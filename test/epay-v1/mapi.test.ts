import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { BASE, harness, type Harness, seed } from "../helpers.ts";
import { call, v1Params } from "./sdk.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
});
afterEach(() => h.close());

const mapi = async (params: Record<string, string>) => (await (await call(h, "POST", "/xpay/epay/mapi.php", params)).json()) as any;

describe("epay V1 mapi.php", () => {
  test("code 1 with trade_no, payurl (the cashier), money, and the account QR when the amount is exact", async () => {
    const body = await mapi(v1Params({ out_trade_no: "M1", money: "9.90" }));
    expect(body).toMatchObject({ code: 1, money: "9.90", trade_amount: "9.90", qrcode: "https://qr.alipay.com/fkx0001" });
    expect(body.payurl).toBe(`${BASE}/pay/${body.trade_no}`);
    expect((await h.gw.store.getOrder(body.trade_no))?.family).toBe("epay-v1");
  });

  test("an adjusted trade_amount sends the payer to the cashier only (no bare QR)", async () => {
    await mapi(v1Params({ out_trade_no: "M2", money: "5.00" }));
    const second = await mapi(v1Params({ out_trade_no: "M3", money: "5.00" }));
    expect(second).toMatchObject({ code: 1, money: "5.00", trade_amount: "4.99" });
    expect(second.qrcode).toBeUndefined();
  });

  test("failures: code -1 with msg", async () => {
    expect(await mapi({ ...v1Params(), name: "changed" })).toMatchObject({ code: -1, msg: expect.stringContaining("signature mismatch") });
    expect(await mapi(v1Params({}, "0".repeat(32)))).toMatchObject({ code: -1 });
    expect(await mapi(v1Params({ pid: 77 }))).toEqual({ code: -1, msg: "unknown merchant (pid)" });
    expect((await mapi(v1Params({ money: "1.234" }))).msg).toContain("money");
    expect((await mapi(v1Params({ type: "wxpay" }))).msg).toContain("no enabled account for pay type wxpay");
    await mapi(v1Params({ out_trade_no: "D", money: "1.00" }));
    expect((await mapi(v1Params({ out_trade_no: "D", money: "2.00" }))).msg).toContain("different amount");
  });
});

// The payable amount stays close to the price (issue 27 item 4). With `max_offset` raised for a
// busy account, the 100th pending 1.00 order was given 0.01, and a V1 order of 0.30 was paid with
// 0.01 while its notification told the shop money=0.30 (V1, V2 and hash carry the price asked).
// max_offset_percent bounds the offset relative to the amount as well; the tighter bound wins.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { CLI_ACTOR } from "../../src/core/admin/audit.ts";
import { offsetLimit } from "../../src/core/allocation.ts";
import { reservedAmounts } from "../../src/core/slots/reserved.ts";
import { changeSettings } from "../../src/core/settings-change.ts";
import { call, v1Params } from "../epay-v1/sdk.ts";
import { harness, type Harness, postJson, SECRET, signed } from "../helpers.ts";

let h: Harness;
let accountId = 0;
beforeEach(async () => {
  h = harness();
  await h.gw.store.addMerchant({ pid: 1001, name: "Shop", secret: SECRET, now: h.clock.now() });
  // The merchant's own account: its own AppSecret reports payments on it.
  accountId = (await h.gw.store.addChannel({ pid: 1001, payType: "alipay", code: "alipay_qr", name: "A", qrcode: "https://qr.alipay.com/x", now: h.clock.now() })).id;
  // The operator raised max_offset to take more pending orders of one price at once.
  await h.gw.store.setSetting("max_offset", "100");
});
afterEach(() => h.close());

let n = 0;
async function nativeOrder(money: string): Promise<number | null> {
  const { body } = await postJson(h, "/xpay/order/create", signed({ pid: 1001, pay_type: "alipay", name: "n", money, out_trade_no: `B${++n}` }));
  return body.code === 200 ? Math.round(Number(body.data.trade_amount) * 100) : null;
}

describe("attacks", () => {
  test("100 pending 1.00 orders: none is given less than 0.90 (10 %); the 12th is refused, not given 0.89 ... 0.01", async () => {
    const given: (number | null)[] = [];
    for (let i = 0; i < 100; i++) given.push(await nativeOrder("1.00"));
    const placed = given.filter((t) => t !== null);
    expect(Math.min(...placed)).toBe(90);
    expect(placed).toEqual([100, 99, 98, 97, 96, 95, 94, 93, 92, 91, 90]);
    expect(given[99]).toBeNull(); // was 0.01
  });

  test("a V1 order of 0.30 is never payable with 0.01: at most 0.03 off, and a 0.01 payment pays nothing", async () => {
    for (let i = 0; i < 29; i++) await nativeOrder("0.30");
    const v1 = (await (await call(h, "POST", "/xpay/epay/mapi.php", v1Params({ out_trade_no: "V1-030", money: "0.30" }))).json()) as any;
    // The account holds 0.30 ... 0.27 already: the V1 order cannot be placed within the tolerance.
    expect(v1).toMatchObject({ code: -1, msg: expect.stringContaining("no free payable amount") });
    const order = await h.gw.store.getOrderByOutTradeNo(1001, "V1-030");
    expect(order?.tradeAmount ?? null).toBeNull();
    const report = await postJson(h, "/api/report/1001/pc", signed({ amount: 1, pay_type: "alipay", channel_code: "alipay_qr", timestamp: h.clock.now() }));
    expect(report.body.data).toMatchObject({ outcome: "unmatched" });
    expect((await h.gw.store.getOrderByOutTradeNo(1001, "V1-030"))?.status).not.toBe(2);
  });
});

describe("the bound", () => {
  test("the tighter of max_offset and max_offset_percent, rounded down; 100 % leaves max_offset alone", () => {
    expect(offsetLimit(30, { maxOffset: 100, maxOffsetPercent: 10 })).toBe(3);
    expect(offsetLimit(29, { maxOffset: 100, maxOffsetPercent: 10 })).toBe(2);
    expect(offsetLimit(5, { maxOffset: 10, maxOffsetPercent: 10 })).toBe(0);
    expect(offsetLimit(100_00, { maxOffset: 10, maxOffsetPercent: 10 })).toBe(10);
    expect(offsetLimit(30, { maxOffset: 100, maxOffsetPercent: 100 })).toBe(30);
  });

  test("upwards too: a payer is never asked more than the tolerance above the price", async () => {
    await h.gw.store.setSetting("offset_direction", "up");
    await h.gw.store.setSetting("max_offset_percent", "5");
    const given = [];
    for (let i = 0; i < 7; i++) given.push(await nativeOrder("1.00"));
    expect(given).toEqual([100, 101, 102, 103, 104, 105, null]);
  });

  test("the slots view answers what the next create does under the bound", async () => {
    for (let i = 0; i < 4; i++) await nativeOrder("0.30");
    const v = await reservedAmounts(h.gw, accountId, { probe: 30 });
    expect(v!.probe!.steps.map((s) => s.tradeAmount)).toEqual([30, 29, 28, 27]);
    expect(v!.probe!.next).toBeNull();
  });

  test("checked on save, from the CLI's and the console's one path: 0 to 100", async () => {
    expect(await changeSettings(h.gw, CLI_ACTOR, { max_offset_percent: "101" })).toEqual({ kind: "refused", problems: { max_offset_percent: { kind: "invalid", message: "must be an integer from 0 to 100" } } });
    expect(await changeSettings(h.gw, CLI_ACTOR, { max_offset_percent: "2.5" })).toMatchObject({ kind: "refused" });
    expect(await changeSettings(h.gw, CLI_ACTOR, { max_offset: "10.00", max_offset_percent: "20" })).toEqual({ kind: "saved", changed: ["max_offset", "max_offset_percent"] });
  });
});

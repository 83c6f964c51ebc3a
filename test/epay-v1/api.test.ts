import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { payOrder } from "../../src/core/pay-order.ts";
import { harness, type Harness, SECRET, seed } from "../helpers.ts";
import { call, v1Params } from "./sdk.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
});
afterEach(() => h.close());

const api = async (method: "GET" | "POST", params: Record<string, string>) => (await (await call(h, method, "/xpay/epay/api.php", params)).json()) as any;
const create = async (o: Record<string, string>) => (await (await call(h, "POST", "/xpay/epay/mapi.php", v1Params(o))).json()) as any;

describe("epay V1 api.php", () => {
  test("act=query: the merchant's counters", async () => {
    await create({ out_trade_no: "Q1" });
    expect(await api("POST", { act: "query", pid: "1001", key: SECRET })).toEqual({ code: 1, pid: 1001, active: 1, orders: 1, order_today: 1, order_lastday: 0 });
    await h.gw.store.updateMerchant(1001, { active: false });
    expect((await api("GET", { act: "query", pid: "1001", key: SECRET })).active).toBe(0);
  });

  test("act=order by GET with key in the query, by trade_no or out_trade_no; spec status", async () => {
    const made = await create({ out_trade_no: "O1", money: "3.50", param: "p=1" });
    const byNo = await api("GET", { act: "order", pid: "1001", key: SECRET, trade_no: made.trade_no });
    expect(byNo).toMatchObject({ code: 1, trade_no: made.trade_no, out_trade_no: "O1", type: "alipay", money: "3.50", status: 1, param: "p=1", endtime: "" });
    expect(byNo.addtime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    await payOrder(h.gw, made.trade_no);
    const byOut = await api("POST", { act: "order", pid: "1001", key: SECRET, out_trade_no: "O1" });
    expect(byOut).toMatchObject({ code: 1, trade_no: made.trade_no, status: 2 });
    expect(byOut.endtime).not.toBe("");
  });

  test("legacy status style answers 0 unpaid / 1 paid", async () => {
    await h.gw.store.setSetting("epay_status_style", "legacy");
    h.gw.forgetSettings();
    const a = await create({ out_trade_no: "L1", money: "1.00" });
    const b = await create({ out_trade_no: "L2", money: "2.00" });
    await payOrder(h.gw, b.trade_no);
    expect((await api("GET", { act: "order", pid: "1001", key: SECRET, trade_no: a.trade_no })).status).toBe(0);
    expect((await api("GET", { act: "order", pid: "1001", key: SECRET, trade_no: b.trade_no })).status).toBe(1);
  });

  test("act=orders: page default 1, limit default 20, at most 100, newest first", async () => {
    for (let i = 1; i <= 25; i++) await create({ out_trade_no: `P${i}`, money: `${i}.00` });
    const first = await api("GET", { act: "orders", pid: "1001", key: SECRET });
    expect(first).toMatchObject({ code: 1, page: 1, limit: 20 });
    expect(first.data).toHaveLength(20);
    const second = await api("GET", { act: "orders", pid: "1001", key: SECRET, page: "2" });
    expect(second.data).toHaveLength(5);
    const all = [...first.data, ...second.data].map((o: any) => o.out_trade_no);
    expect(new Set(all).size).toBe(25);
    const big = await api("POST", { act: "orders", pid: "1001", key: SECRET, limit: "500" });
    expect(big.limit).toBe(100);
    expect(big.data).toHaveLength(25);
    expect((await api("GET", { act: "orders", pid: "1001", key: SECRET, page: "9" })).data).toEqual([]);
  });

  test("wrong key, unknown pid, bad act, missing lookup, other merchant's order", async () => {
    const made = await create({ out_trade_no: "X1" });
    expect(await api("GET", { act: "query", pid: "1001", key: "nope" })).toEqual({ code: -1, msg: "unknown pid or wrong key" });
    expect((await api("GET", { act: "query", pid: "999", key: SECRET })).code).toBe(-1);
    expect((await api("GET", { act: "refund", pid: "1001", key: SECRET })).msg).toContain("act");
    expect((await api("GET", { act: "order", pid: "1001", key: SECRET })).msg).toContain("trade_no or out_trade_no");
    await h.gw.store.addMerchant({ pid: 1002, name: "Other", secret: "s".repeat(32), now: h.clock.now() });
    expect(await api("GET", { act: "order", pid: "1002", key: "s".repeat(32), trade_no: made.trade_no })).toEqual({ code: -1, msg: "order not found" });
  });
});

// Issue 28, 测试支付 on a receiving account (core/test-pay.ts, account-test-pay.tsx): a small order
// pinned to THAT account (not the first one the allocation would pick), without notify/return URL
// (no merchant's shop is told), under the account's merchant or the lowest active merchant for a
// shared account; bad amounts 422 with nothing created; audited; the status box follows the order
// until it is paid.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestPayment } from "../../src/core/test-pay.ts";
import { CLI_ACTOR } from "../../src/core/admin/audit.ts";
import { devPay } from "../../src/core/dev/actions.ts";
import { type AdminHarness, adminHarness, auditRows } from "./support.ts";

let h: AdminHarness;
let first = 0;
let second = 0;
let owned = 0;
let off = 0;
beforeAll(async () => {
  h = await adminHarness();
  const now = h.clock.now();
  await h.gw.store.addMerchant({ pid: 1002, name: "Second", secret: "s".repeat(32), now });
  await h.gw.store.addMerchant({ pid: 1001, name: "Shop", secret: "s".repeat(32), now });
  const add = async (pid: number, code: string) => {
    const r = await h.post("/admin/accounts", { pid: String(pid), pay_type: "alipay", code, name: `Acc ${code}`, qrcode: `https://qr.alipay.com/${code}`, scheme: "", min: "", max: "", day: "", sort: "", remark: "" });
    expect(r.status).toBe(303);
    return Number(new URL(r.headers.get("location")!, "http://x").searchParams.get("id"));
  };
  first = await add(0, "first");
  second = await add(0, "second");
  owned = await add(1002, "owned");
  off = await add(0, "off");
  expect((await h.post(`/admin/accounts/${off}/disable`, {})).status).toBe(303);
});
afterAll(() => h.close());

const orderCount = async () => (await h.gw.store.listOrders({ limit: 1000 })).length;

describe("test payment", () => {
  test("the list and the account page offer it on enabled accounts", async () => {
    const list = await (await h.get("/admin/accounts")).text();
    expect(list).toContain(`href="/admin/accounts/${second}/test-pay"`);
    expect(list).not.toContain(`href="/admin/accounts/${off}/test-pay"`);
    expect(await (await h.get(`/admin/accounts/${second}`)).text()).toContain('id="account-test-pay"');
    const form = await (await h.get(`/admin/accounts/${second}/test-pay`)).text();
    expect(form).toContain("1001 · Shop"); // a shared account: the lowest active merchant
    expect(form).toContain("不会通知任何商户的网站");
  });

  test("bad amounts: 422 under the field, no order, no audit row", async () => {
    const before = await orderCount();
    const rows = (await auditRows(h)).length;
    for (const amount of ["", "0", "abc", "1.234", "100.01", "-1"]) {
      const r = await h.post(`/admin/accounts/${second}/test-pay`, { amount });
      expect(r.status).toBe(422);
      expect(await r.text()).toContain("金额格式不对");
    }
    const r = await h.post(`/admin/accounts/${off}/test-pay`, { amount: "0.01" });
    expect(r.status).toBe(422);
    expect(await r.text()).toContain("这个账户已停用");
    expect((await h.post("/admin/accounts/999/test-pay", { amount: "0.01" })).status).toBe(404);
    expect(await orderCount()).toBe(before);
    expect((await auditRows(h)).length).toBe(rows);
  });

  test("creates an order pinned to THAT account, no notify URL, audited; the page polls until paid", async () => {
    const r = await h.post(`/admin/accounts/${second}/test-pay`, { amount: "0.5" });
    expect(r.status).toBe(303);
    const loc = r.headers.get("location")!;
    const tradeNo = decodeURIComponent(loc.split("/").at(-1)!);
    const o = (await h.gw.store.getOrder(tradeNo))!;
    expect(o.accountId).toBe(second); // the allocation alone would take `first` (same sort, lower id)
    expect(o.pid).toBe(1001);
    expect(o.amount).toBe(50);
    expect(o.notifyUrl).toBe("");
    expect(o.returnUrl).toBe("");
    expect(o.outTradeNo.startsWith("xpay-test-")).toBe(true);
    const audit = (await auditRows(h)).at(-1)!;
    expect(audit.action).toBe("account.test_pay");
    expect(audit.target).toBe(`account:${second}`);
    expect(JSON.stringify(audit.after)).toContain(tradeNo);

    const pageHtml = await (await h.get(loc)).text();
    expect(pageHtml).toContain(`href="/pay/${tradeNo}"`);
    expect(pageHtml).toContain('hx-trigger="every 3s"');
    expect(pageHtml).toContain("0.50");
    await devPay(h.gw, tradeNo);
    const box = await (await h.get(`${loc}?box=1`)).text();
    expect(box).toContain('id="test-pay-paid"');
    expect(box).not.toContain("hx-trigger");
    // another account's page does not show this order
    expect((await h.get(`/admin/accounts/${first}/test-pay/${tradeNo}`)).status).toBe(404);
  });

  test("an owned account's test order belongs to its merchant; the CLI's core function is the same", async () => {
    const r = await createTestPayment(h.gw, CLI_ACTOR, owned, "1");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.order.pid).toBe(1002);
    expect(r.order.accountId).toBe(owned);
    expect((await auditRows(h)).at(-1)!.actor).toBe("cli");
  });
});

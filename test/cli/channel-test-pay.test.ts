// `xpay channel test-pay ID` (issue 28, 测试支付): the console's core function from the CLI: an
// order pinned to that account, without notify URL, its cashier link printed; refusals in one line.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Gateway } from "../../src/core/gateway.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import { BASE, SECRET, tempDir } from "../helpers.ts";
import { cliOn } from "./run-cli.ts";

const dir = tempDir("xpay-cli-test-pay-");
const db = join(dir, "tp.db");
const { json, refused, xpay } = cliOn(db);
let gw: Gateway;

beforeAll(async () => {
  gw = openGateway({ db, baseUrl: BASE });
  await gw.store.addMerchant({ pid: 1001, name: "Shop", secret: SECRET, now: gw.clock.now() });
  json("channel", "add", "--pid", "0", "--pay-type", "alipay", "--code", "a1", "--name", "A", "--qrcode", "https://qr.alipay.com/1");
  json("channel", "add", "--pid", "0", "--pay-type", "alipay", "--code", "a2", "--name", "B", "--qrcode", "https://qr.alipay.com/2");
});
afterAll(() => {
  gw.store.close();
  rmSync(dir, { recursive: true, force: true });
});

test("creates a test order on the named account and prints its cashier", async () => {
  const out = json("channel", "test-pay", "2", "--amount", "0.30") as { trade_no: string; account_id: number; pid: number; amount_cents: number; cashier_url: string };
  expect(out.account_id).toBe(2);
  expect(out.pid).toBe(1001);
  expect(out.amount_cents).toBe(30);
  expect(out.cashier_url.endsWith(`/pay/${out.trade_no}`)).toBe(true);
  const o = (await gw.store.getOrder(out.trade_no))!;
  expect(o.accountId).toBe(2);
  expect(o.notifyUrl).toBe("");
  const text = xpay("channel", "test-pay", "1");
  expect(text.out).toContain("pay ¥0.01 at");
});

test("refusals: bad amount, unknown account", () => {
  refused(["channel", "test-pay", "1", "--amount", "500"], 'amount: "500" is more than ¥100.00, the most it can be');
  refused(["channel", "test-pay", "9"], "no account with id 9");
});

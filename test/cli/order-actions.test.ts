// The console's order actions on the command line (issue 17): `order confirm` (补单) and `report
// assign` with a required reason, `order close` and `notify replay`, each the same audited core call
// as the console's, written to the audit log as `cli`; and `order list` on the console's filter
// (store.browse.searchOrders: --search, --pay-type, --account, --from/--to in the timezone setting).
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Gateway } from "../../src/core/gateway.ts";
import { buildApp } from "../../src/server/app.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import { BASE, nativeCreate, SECRET, signed, tempDir } from "../helpers.ts";
import { cliOn } from "./run-cli.ts";

const dir = tempDir("xpay-cli-actions-");
const db = join(dir, "actions.db");
const { xpay, json, refused } = cliOn(db);
let gw: Gateway;
const orders: Record<string, string> = {};
let unmatchedId = 0;
let wxAccount = 0;

async function call(path: string, params: Record<string, string | number>) {
  const res = await buildApp(gw).handle(new Request(`http://localhost${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(params) }));
  return (await res.json()) as { code: number; data: any };
}

function auditLog(): { actor: string; action: string; target: string; reason: string; before_json: string; after_json: string }[] {
  const d = new Database(db, { readonly: true });
  try {
    return d.query("SELECT actor, action, target, reason, before_json, after_json FROM audit_log ORDER BY id").all() as never;
  } finally {
    d.close();
  }
}

beforeAll(async () => {
  gw = openGateway({ db, baseUrl: BASE });
  await gw.store.addMerchant({ pid: 1001, name: "Shop", secret: SECRET, now: gw.clock.now() });
  await gw.store.addChannel({ pid: 0, payType: "alipay", code: "c1", name: "A", qrcode: "https://qr.alipay.com/1", now: gw.clock.now() });
  wxAccount = (await gw.store.addChannel({ pid: 0, payType: "wxpay", code: "w1", name: "W", qrcode: "wxp://1", now: gw.clock.now() })).id;
  const create = async (o: Record<string, string>) => (await call("/xpay/order/create", nativeCreate({ notify_url: "http://127.0.0.1:9/n", ...o }))).data.trade_no as string;
  orders.confirm = await create({ money: "1.00", out_trade_no: "CONF-1" });
  orders.assign = await create({ money: "2.00" });
  orders.wx = await create({ money: "3.00", pay_type: "wxpay", out_trade_no: "WX-3" });
  orders.close = await create({ money: "4.00" });
  const r = await call("/api/report/1001/pc", signed({ timestamp: gw.clock.now(), amount: 199, pay_type: "alipay", channel_code: "c1" }));
  expect(r.data.outcome).toBe("unmatched");
  unmatchedId = r.data.report_id;
});
afterAll(() => {
  gw.store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("order confirm", () => {
  test("a reason is required: missing or blank is one line and nothing changes", () => {
    refused(["order", "confirm", orders.confirm!], "missing required option: --reason (see xpay order confirm --help)");
    refused(["order", "confirm", orders.confirm!, "--reason", " "], "a reason is required (what shows the money arrived, e.g. 支付宝账单 2026-11-23 10:02 ¥9.98)");
    refused(["order", "confirm", "20240101000000123456", "--reason", "bank line 4"], "no order 20240101000000123456");
    expect(auditLog()).toEqual([]);
  });

  test("pays the order, queues the notification, audited as cli with the reason; a second time is refused", async () => {
    const out = json("order", "confirm", orders.confirm!, "--reason", "支付宝账单 10:02 ¥1.00");
    expect(out).toMatchObject({ trade_no: orders.confirm, status: 2, status_text: "paid", notification: "pending" });
    expect((await gw.store.getOrder(orders.confirm!))?.status).toBe(2);
    const row = auditLog().at(-1)!;
    expect(row).toMatchObject({ actor: "cli", action: "order.confirm", target: `order:${orders.confirm}`, reason: "支付宝账单 10:02 ¥1.00" });
    expect(JSON.parse(row.before_json)).toMatchObject({ status: "pending" });
    expect(JSON.parse(row.after_json)).toMatchObject({ status: "paid" });
    refused(["order", "confirm", orders.confirm!, "--reason", "again"], `order ${orders.confirm} is already paid`);
  });
});

describe("report assign", () => {
  test("refusals are one line; then the report pays the order once, audited as cli", async () => {
    refused(["report", "assign", String(unmatchedId), orders.assign!], "missing required option: --reason (see xpay report assign --help)");
    refused(["report", "assign", "x", orders.assign!, "--reason", "short"], "report_id must be a whole number >= 1");
    refused(["report", "assign", "9999", orders.assign!, "--reason", "short"], "no report 9999");
    refused(["report", "assign", String(unmatchedId), orders.confirm!, "--reason", "short"], `order ${orders.confirm} is already paid`);
    const r = xpay("report", "assign", String(unmatchedId), orders.assign!, "--reason", "paid 1.99 for 2.00");
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: "" });
    expect(r.out).toBe(`report ${unmatchedId} paid order ${orders.assign}; the merchant's notification is queued (a running serve sends it)\n`);
    expect((await gw.store.getOrder(orders.assign!))?.status).toBe(2);
    expect(auditLog().at(-1)).toMatchObject({ actor: "cli", action: "report.assign", target: `order:${orders.assign}`, reason: "paid 1.99 for 2.00" });
    refused(["report", "assign", String(unmatchedId), orders.wx!, "--reason", "again"], `report ${unmatchedId} is matched; only an unmatched report can be assigned`);
  });
});

describe("order close and notify replay are audited as cli", () => {
  test("close", () => {
    expect(xpay("order", "close", orders.close!).out).toBe(`order ${orders.close} closed\n`);
    expect(auditLog().at(-1)).toMatchObject({ actor: "cli", action: "order.close", target: `order:${orders.close}` });
  });

  test("replay", () => {
    expect(xpay("notify", "replay", orders.confirm!).out).toBe(`notification for ${orders.confirm} re-queued\n`);
    expect(auditLog().at(-1)).toMatchObject({ actor: "cli", action: "notification.replay", target: `order:${orders.confirm}` });
    refused(["notify", "replay", orders.wx!.replace(/\d$/, "0")], `no notification for order ${orders.wx!.replace(/\d$/, "0")} (an order without notify_url has none)`);
  });
});

describe("order list on the console's filter", () => {
  const listed = (...args: string[]) => json("order", "list", ...args).map((o: { trade_no: string }) => o.trade_no);

  test("search, pay type, account, dates", () => {
    expect(listed("--search", "WX-3")).toEqual([orders.wx]);
    expect(listed("--search", orders.wx!)).toEqual([orders.wx]);
    expect(listed("--search", "3.00")).toEqual([orders.wx]);
    expect(listed("--pay-type", "wxpay")).toEqual([orders.wx]);
    expect(listed("--account", String(wxAccount))).toEqual([orders.wx]);
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Shanghai" }).format(new Date());
    expect(listed("--from", today, "--status", "paid").sort()).toEqual([orders.confirm, orders.assign].sort());
    expect(listed("--to", "2020-01-01")).toEqual([]);
  });

  test("bad filters are one line naming the option", () => {
    refused(["order", "list", "--from", "2026-02-30"], "--from must be a date (2026-11-23) or a date and time (2026-11-23 14:30) in Asia/Shanghai");
    refused(["order", "list", "--from", "2026-11-23", "--to", "2026-11-22"], "--to must be after the start of the range");
    refused(["order", "list", "--search", "订单"], "--search must be a trade_no, an amount such as 9.98, or an out_trade_no (1-64 printable ASCII characters)");
    refused(["order", "list", "--pay-type", "Ali Pay"], "--pay-type must be a pay type such as alipay, wxpay or qqpay");
    refused(["order", "list", "--pid", ""], "--pid must not be empty");
  });
});

// `xpay order close-pending`: the console's bulk close for orders a filter selects. Pending orders
// only, a reason required, a filter required, at most 200 at once (more is refused unless --limit
// says how many), --dry-run changes nothing; each order is closed and audited as `cli` with the
// reason, and one summary entry records the filter.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ManualClock } from "../../src/core/clock.ts";
import type { Gateway } from "../../src/core/gateway.ts";
import { payOrder } from "../../src/core/pay-order.ts";
import { formatLocal } from "../../src/core/time.ts";
import { buildApp } from "../../src/server/app.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import { BASE, nativeCreate, SECRET, tempDir } from "../helpers.ts";
import { cliOn } from "./run-cli.ts";

const dir = tempDir("xpay-cli-close-pending-");
const db = join(dir, "close-pending.db");
const { xpay, json, refused } = cliOn(db);
let gw: Gateway;
let earlier: Gateway; // the same file ten minutes ago: its orders are still pending (15 min to pay)
const older: string[] = [];
let newer = "";
let paid = "";
let cutoff = ""; // five minutes ago, local, to the minute: after the older orders, before the newer

async function create(g: Gateway, o: Record<string, string>) {
  const res = await buildApp(g).handle(new Request("http://localhost/xpay/order/create", {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(nativeCreate(o)),
  }));
  const body = (await res.json()) as { code: number; data: { trade_no: string } };
  expect(body.code).toBe(200);
  return body.data.trade_no;
}

beforeAll(async () => {
  gw = openGateway({ db, baseUrl: BASE });
  earlier = openGateway({ db, baseUrl: BASE, clock: new ManualClock(Date.now() - 600_000) });
  await gw.store.addMerchant({ pid: 1001, name: "Shop", secret: SECRET, now: gw.clock.now() });
  await gw.store.addMerchant({ pid: 1002, name: "Big", secret: SECRET, now: gw.clock.now() });
  await gw.store.addChannel({ pid: 0, payType: "alipay", code: "c1", name: "A", qrcode: "https://qr.alipay.com/1", now: gw.clock.now() });
  for (const money of ["1.00", "2.00", "3.00"]) older.push(await create(earlier, { money }));
  paid = await create(earlier, { money: "4.00" });
  expect((await payOrder(gw, paid)).kind).toBe("paid");
  newer = await create(gw, { money: "5.00" });
  // 201 pending orders of merchant 1002: one more than the cap.
  for (let i = 0; i < 201; i++) await create(gw, { pid: "1002", money: `${100 + i}.00` });
  cutoff = formatLocal(Date.now() - 300_000, "Asia/Shanghai").slice(0, 16);
});
afterAll(() => {
  gw.store.close();
  earlier.store.close();
  rmSync(dir, { recursive: true, force: true });
});

const status = async (tradeNo: string) => (await gw.store.getOrder(tradeNo))!.status;
const auditOf = () => gw.store.admin.listAudit({ limit: 1000 });

describe("refusals: one line, nothing changed", () => {
  test("a reason is required", () => {
    const r = xpay("order", "close-pending", "--pid", "1001");
    expect(r.code).toBe(1);
    expect(r.err).toBe("error: missing required option: --reason (see xpay order close-pending --help)\n");
    refused(["order", "close-pending", "--pid", "1001", "--reason", " "], "a reason is required");
  });

  test("a filter is required, and every value is checked like order list's", () => {
    refused(["order", "close-pending", "--reason", "cleanup"], "choose the orders: give at least one of --pid, --from, --to, --account, --pay-type, --search, --ip, --amount-min, --amount-max");
    refused(["order", "close-pending", "--to", "2026-02-30", "--reason", "cleanup"], "--to must be a date (2026-11-23) or a date and time (2026-11-23 14:30) in Asia/Shanghai");
    refused(["order", "close-pending", "--pid", "", "--reason", "cleanup"], "--pid must not be empty");
    expect(xpay("order", "close-pending", "--status", "paid", "--pid", "1001", "--reason", "x y").err).toContain("unknown option '--status'");
  });

  test("the cap: more than 200 pending orders match and no --limit: nothing closed", async () => {
    refused(["order", "close-pending", "--pid", "1002", "--reason", "cleanup"], "more than 200 pending orders match; narrow the filter, or close the newest 200 with --limit 200 and run it again");
    refused(["order", "close-pending", "--pid", "1002", "--reason", "cleanup", "--limit", "201"], "--limit must be at most 200 (the console's bulk cap)");
    expect((await auditOf()).filter((e) => e.action === "order.bulk_close")).toEqual([]);
  });
});

describe("dry run, then the real thing", () => {
  test("--dry-run lists the pending orders created before the cutoff and changes nothing", async () => {
    const before = (await auditOf()).length;
    const out = json("order", "close-pending", "--pid", "1001", "--to", cutoff, "--reason", "商户下线", "--dry-run");
    expect(out.dry_run).toBe(true);
    expect(out.orders.map((o: { trade_no: string }) => o.trade_no).sort()).toEqual([...older].sort());
    expect(out.orders.map((o: { amount_cents: number }) => o.amount_cents).sort()).toEqual([100, 200, 300]);
    expect(out.orders[0].amount).toBeUndefined();
    for (const t of older) expect(await status(t)).toBe(1);
    expect((await auditOf()).length).toBe(before);
    const text = xpay("order", "close-pending", "--pid", "1001", "--to", cutoff, "--reason", "商户下线", "--dry-run");
    expect(text.code).toBe(0);
    expect(text.out).toContain("3 pending order(s) would be closed (dry run: nothing changed)");
  });

  test("closes them: each audited as cli with the reason, one summary entry with the filter; others untouched", async () => {
    const r = xpay("order", "close-pending", "--pid", "1001", "--to", cutoff, "--reason", "商户下线");
    expect({ code: r.code, out: r.out, err: r.err }).toEqual({ code: 0, out: "3 order(s) closed\n", err: "" });
    for (const t of older) expect(await status(t)).toBe(3);
    expect(await status(newer)).toBe(1);
    expect(await status(paid)).toBe(2);
    const entries = await auditOf();
    const closes = entries.filter((e) => e.action === "order.close");
    expect(closes.map((e) => e.target).sort()).toEqual(older.map((t) => `order:${t}`).sort());
    for (const e of closes) expect([e.actor, e.reason]).toEqual(["cli", "商户下线"]);
    const summary = entries.find((e) => e.action === "order.bulk_close")!;
    expect(summary.actor).toBe("cli");
    expect(summary.before).toEqual({ selected: 3, filter: { pid: "1001", to: cutoff } });
    expect((summary.after as { done: number }).done).toBe(3);
    // Again: nothing pending matches any more.
    expect(xpay("order", "close-pending", "--pid", "1001", "--to", cutoff, "--reason", "商户下线").out).toBe("no pending order matches\n");
  });

  test("--limit closes the newest n of a larger selection", async () => {
    const out = json("order", "close-pending", "--pid", "1002", "--reason", "cleanup", "--limit", "5");
    expect(out.closed).toHaveLength(5);
    expect(out.skipped).toEqual([]);
    const pending = await gw.store.browse.searchOrders({ pid: 1002, status: 1, limit: 300, now: gw.clock.now() });
    expect(pending).toHaveLength(196);
    for (const t of out.closed) expect(await status(t)).toBe(3);
  });
});

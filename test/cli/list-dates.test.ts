// The console's date filters in the terminal: `notify list --pid --from --to`, `report list
// --from --to` and `audit list --from --to` read local days in the `timezone` setting (here
// Asia/Shanghai, where 2026-12-01 00:10 is still 30 November in UTC); a bad date is one line, exit 1.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { audit, CLI_ACTOR } from "../../src/core/admin/audit.ts";
import { ManualClock } from "../../src/core/clock.ts";
import type { Gateway } from "../../src/core/gateway.ts";
import { payOrder } from "../../src/core/pay-order.ts";
import { buildApp } from "../../src/server/app.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import { BASE, nativeCreate, SECRET, signed, tempDir } from "../helpers.ts";
import { cliOn } from "./run-cli.ts";

const dir = tempDir("xpay-cli-list-dates-");
const db = join(dir, "dates.db");
const { xpay, json, refused } = cliOn(db);
const gws: Gateway[] = [];
const trade: Record<string, string> = {};
// Y: 2026-11-30 23:50 in Shanghai (merchant 1002), T: 2026-12-01 00:10 there (merchant 1001).
const AT = { Y: Date.parse("2026-11-30T15:50:00Z"), T: Date.parse("2026-11-30T16:10:00Z") };

async function call(g: Gateway, path: string, body: Record<string, string | number>) {
  const res = await buildApp(g).handle(new Request(`http://localhost${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
  return (await res.json()) as { code: number; data: { trade_no: string } };
}

beforeAll(async () => {
  const setup = openGateway({ db, baseUrl: BASE });
  gws.push(setup);
  for (const pid of [1001, 1002]) await setup.store.addMerchant({ pid, name: `Shop ${pid}`, secret: SECRET, now: setup.clock.now() });
  await setup.store.addChannel({ pid: 0, payType: "alipay", code: "c1", name: "A", qrcode: "https://qr.alipay.com/1", now: setup.clock.now() });
  for (const [name, ms] of Object.entries(AT)) {
    const g = openGateway({ db, baseUrl: BASE, clock: new ManualClock(ms) });
    gws.push(g);
    const o = await call(g, "/xpay/order/create", nativeCreate({ pid: name === "Y" ? 1002 : 1001, money: "2.00", notify_url: "http://127.0.0.1:9/n" }));
    trade[name] = o.data.trade_no;
    expect((await payOrder(g, o.data.trade_no)).kind).toBe("paid");
    // Money that matched nothing, reported then.
    const r = await call(g, "/api/report/1001/pc", signed({ amount: name === "Y" ? 70001 : 70002, pay_type: "alipay", channel_code: "c1", timestamp: g.clock.now() }, SECRET));
    expect(JSON.stringify(r)).toContain("unmatched");
    await audit(g, { actor: CLI_ACTOR, action: "test.mark", target: `mark:${name}` });
  }
});
afterAll(() => {
  for (const g of gws) g.store.close();
  rmSync(dir, { recursive: true, force: true });
});

const nos = (rows: { trade_no: string }[]) => rows.map((r) => r.trade_no);

test("notify list: by merchant and local days", () => {
  expect(nos(json("notify", "list", "--pid", "1002"))).toEqual([trade.Y!]);
  expect(nos(json("notify", "list", "--from", "2026-12-01"))).toEqual([trade.T!]);
  expect(nos(json("notify", "list", "--to", "2026-11-30"))).toEqual([trade.Y!]);
  expect(nos(json("notify", "list", "--pid", "1001", "--from", "2026-11-30", "--to", "2026-11-30"))).toEqual([]);
  refused(["notify", "list", "--from", "2026-11-31"], "--from must be a date (2026-11-23) or a date and time (2026-11-23 14:30) in Asia/Shanghai");
  refused(["notify", "list", "--pid", "x"], "--pid must be a merchant number (pid)");
  refused(["notify", "list", "--from", "2026-12-01", "--to", "2026-11-30"], "--to must be after the start of the range");
});

test("report list and audit list: local days", () => {
  const amounts = (rows: { amount_cents: number }[]) => rows.map((r) => r.amount_cents);
  expect(amounts(json("report", "list", "--from", "2026-12-01", "--to", "2026-12-01"))).toEqual([70002]);
  expect(amounts(json("report", "list", "--to", "2026-11-30", "--outcome", "unmatched"))).toEqual([70001]);
  refused(["report", "list", "--to", "tomorrow"], "--to must be a date (2026-11-23) or a date and time (2026-11-23 14:30) in Asia/Shanghai");
  const marks = (from: string, to: string) => json("audit", "list", "--action", "test.mark", "--from", from, "--to", to).map((e: { target: string }) => e.target);
  expect(marks("2026-11-30", "2026-11-30")).toEqual(["mark:Y"]);
  expect(marks("2026-11-30 23:55", "2026-12-01")).toEqual(["mark:T"]);
  refused(["audit", "list", "--from", "2026-13-01"], "--from must be a date (2026-11-23) or a date and time (2026-11-23 14:30) in Asia/Shanghai");
});

// `xpay notify health`, `notify failures` and `xpay notify resend --pid P --failing --reason R` (issue 28): a merchant's
// server refused every notification; once it is back, one command sends all of them again, audited
// as `cli` with the count, and says how many arrived.
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Gateway } from "../../src/core/gateway.ts";
import { deliverDue } from "../../src/core/notify/deliver.ts";
import { payOrder } from "../../src/core/pay-order.ts";
import { buildApp } from "../../src/server/app.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import { BASE, nativeCreate, SECRET, tempDir } from "../helpers.ts";
import { cliOn } from "./run-cli.ts";

const dir = tempDir("xpay-cli-resend-");
const db = join(dir, "resend.db");
const { xpay, json, refused } = cliOn(db);
let gw: Gateway;
// The merchant's server runs in a child process (the CLI runs with spawnSync, which blocks this
// one); it answers "success" once the file `up` exists.
const upFile = join(dir, "up");
const receiver = Bun.spawn([process.execPath, "-e", `
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: async () => (await Bun.file(${JSON.stringify(upFile)}).exists()) ? new Response("success") : new Response("down", { status: 503 }) });
  console.log(s.port);`], { stdout: "pipe" });
let port = 0;

beforeAll(async () => {
  const reader = receiver.stdout.getReader();
  port = Number(new TextDecoder().decode((await reader.read()).value).trim());
  reader.releaseLock();
  gw = openGateway({ db, baseUrl: BASE });
  await gw.store.addMerchant({ pid: 1001, name: "Shop", secret: SECRET, now: gw.clock.now() });
  await gw.store.addMerchant({ pid: 1002, name: "Other", secret: SECRET, now: gw.clock.now() });
  await gw.store.addChannel({ pid: 0, payType: "alipay", code: "c1", name: "A", qrcode: "https://qr.alipay.com/1", now: gw.clock.now() });
  for (const money of ["1.00", "2.00", "3.00"]) {
    const res = await buildApp(gw).handle(new Request("http://localhost/xpay/order/create", {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify(nativeCreate({ money, notify_url: `http://127.0.0.1:${port}/n` })),
    }));
    const tradeNo = ((await res.json()) as { data: { trade_no: string } }).data.trade_no;
    expect((await payOrder(gw, tradeNo)).kind).toBe("paid");
  }
  expect(await deliverDue(gw)).toEqual({ attempted: 3, delivered: 0 });
});
afterAll(() => {
  receiver.kill();
  gw.store.close();
  rmSync(dir, { recursive: true, force: true });
});

test("notify health: the failing merchant with its last error and queue; the other idle", () => {
  const rows = json("notify", "health");
  expect(rows.map((r: { pid: number; state: string }) => [r.pid, r.state])).toEqual([[1001, "failing"], [1002, "idle"]]);
  expect(rows[0]).toMatchObject({ pending: 3, failing: 3, given_up: 0, last_error: "HTTP 503", last_success: "" });
  expect(rows[0].failing_since).not.toBe("");
  expect(xpay("notify", "health").out).toContain("HTTP 503");
  refused(["notify", "health", "--pid", "4242"], "no merchant 4242");
});

test("notify failures: the three refusals of one merchant are one line with the count", () => {
  const [g, ...rest] = json("notify", "failures");
  expect(rest).toEqual([]);
  expect(g).toMatchObject({ pid: 1001, error: "HTTP 503", count: 3, given_up: 0 });
  expect(g.latest).not.toBe("");
});

test("notify resend refuses without --failing, without a reason, for an unknown merchant or one with nothing failing", () => {
  refused(["notify", "resend", "--pid", "1001", "--reason", "back up"], "say what to resend: --failing (every undelivered notification of the merchant that failed at least once)");
  refused(["notify", "resend", "--pid", "1001", "--failing", "--reason", " "], "a reason is required (e.g. the merchant's server is back: 商户已修复通知地址)");
  refused(["notify", "resend", "--pid", "4242", "--failing", "--reason", "back up"], "no merchant 4242");
  refused(["notify", "resend", "--pid", "1002", "--failing", "--reason", "back up"], "merchant 1002 has no failing notification to resend");
});

test("notify resend --failing --deliver: every failing notification sent again, the outcome counted, one audit row", () => {
  writeFileSync(upFile, "");
  expect(json("notify", "resend", "--pid", "1001", "--failing", "--reason", "商户已修复通知地址", "--deliver")).toEqual({ pid: 1001, requeued: 3, delivered_since: 3, pending: 0 });
  expect(json("notify", "health", "--pid", "1001")).toMatchObject({ state: "ok", failing_since: "", pending: 0, failing: 0, delivered: 3 });
  const d = new Database(db, { readonly: true });
  const rows = d.query("SELECT actor, action, target, reason, after_json FROM audit_log WHERE action = 'notification.resend_failing'").all();
  d.close();
  expect(rows).toEqual([{ actor: "cli", action: "notification.resend_failing", target: "merchant:1001", reason: "商户已修复通知地址", after_json: JSON.stringify({ requeued: 3 }) }]);
});

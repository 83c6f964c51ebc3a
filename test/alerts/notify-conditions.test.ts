// The notification conditions (failing N times in a row, given up, a merchant failing for M
// minutes) and the database write probe, each firing and resolving with the ManualClock.
import { afterEach, expect, test } from "bun:test";
import { deliverDue } from "../../src/core/notify/deliver.ts";
import { RETRY_DELAYS_S } from "../../src/core/notify/schedule.ts";
import { settleOperatorPayment } from "../../src/core/settle-report.ts";
import { createOrder } from "../report/util.ts";
import { alertHarness, pass } from "./util.ts";

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup) c();
  cleanup = [];
});

/** A paid order whose merchant endpoint answers "fail" until told otherwise. */
async function failingNotification() {
  const x = await alertHarness();
  let answer = "fail";
  const endpoint = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(answer) });
  cleanup.push(x.close, () => endpoint.stop(true));
  await x.h.gw.store.setSetting("alert_client_silent", "0");
  await x.h.gw.store.setSetting("alert_account_offline", "0");
  expect(await pass(x.h, x.s)).toEqual([]);
  const order = await createOrder(x.h, { notify_url: `http://127.0.0.1:${endpoint.port}/notify` });
  await settleOperatorPayment(x.h.gw, order.trade_no);
  /** Runs the attempt that is due `seconds` from now. */
  const attempt = async (seconds: number) => {
    x.h.clock.advance(seconds);
    await deliverDue(x.h.gw);
  };
  return { ...x, order, attempt, succeed: () => (answer = "success") };
}

const of = (list: any[], condition: string) => list.filter((m) => m.condition === condition);

test("notify_failing fires after N failed attempts in a row and resolves when delivered", async () => {
  const x = await failingNotification();
  await x.attempt(0);
  for (const d of RETRY_DELAYS_S.slice(0, 3)) await x.attempt(d); // 4 failed attempts
  expect(of(await pass(x.h, x.s), "notify_failing")).toEqual([]);
  await x.attempt(RETRY_DELAYS_S[3]); // the 5th
  const [fired] = of(await pass(x.h, x.s), "notify_failing");
  expect(fired).toMatchObject({ event: "firing", refs: { pid: 1001, tradeNo: x.order.trade_no }, command: `xpay notify show ${x.order.trade_no}` });
  expect(fired.title).toContain("failed 5 times in a row");
  expect(fired.text).toContain("response is not an acknowledgement");
  x.succeed();
  await x.attempt(RETRY_DELAYS_S[4]);
  expect(of(await pass(x.h, x.s), "notify_failing")).toMatchObject([{ event: "resolved", key: fired.key }]);
});

test("merchant_failing fires after M minutes with no delivery and resolves when one gets through", async () => {
  const x = await failingNotification();
  await x.h.gw.store.setSetting("alert_notify_failures", "0");
  x.h.gw.forgetSettings();
  let elapsed = 0;
  await x.attempt(0);
  for (const d of RETRY_DELAYS_S.slice(0, 5)) {
    await x.attempt(d);
    elapsed += d;
  }
  expect(elapsed).toBe(840);
  x.h.clock.advance(1800 - elapsed - 1);
  expect(of(await pass(x.h, x.s), "merchant_failing")).toEqual([]);
  x.h.clock.advance(1);
  const [fired] = of(await pass(x.h, x.s), "merchant_failing");
  expect(fired).toMatchObject({ key: "merchant_failing:merchant:1001", refs: { pid: 1001 } });
  expect(fired.title).toContain("notifications failing for 30 min");
  x.succeed();
  await x.attempt(RETRY_DELAYS_S[5]);
  expect(of(await pass(x.h, x.s), "merchant_failing")).toMatchObject([{ event: "resolved", key: fired.key }]);
});

test("notify_given_up fires once when the last attempt fails; replay and a second give-up fire again", async () => {
  const x = await failingNotification();
  await x.h.gw.store.setSetting("alert_notify_failures", "0");
  await x.h.gw.store.setSetting("alert_merchant_failing", "0");
  x.h.gw.forgetSettings();
  await x.attempt(0);
  for (const d of RETRY_DELAYS_S.slice(0, -1)) await x.attempt(d);
  expect(of(await pass(x.h, x.s), "notify_given_up")).toEqual([]);
  await x.attempt(RETRY_DELAYS_S.at(-1)!);
  expect((await x.h.gw.store.getNotification(x.order.trade_no))!.status).toBe("failed");
  const [fired] = of(await pass(x.h, x.s), "notify_given_up");
  expect(fired.key).toMatch(/^notify_given_up:notification:\d+:16$/);
  expect(fired.command).toBe(`xpay notify show ${x.order.trade_no}; xpay notify replay ${x.order.trade_no}`);
  expect(await pass(x.h, x.s)).toEqual([]);
  await x.h.gw.store.requeueNotification(x.order.trade_no, x.h.clock.nowMs());
  await x.attempt(0);
  expect(of(await pass(x.h, x.s), "notify_given_up")).toMatchObject([{ key: fired.key.replace(/16$/, "17") }]);
});

test("db_write: a refused write goes straight to the channels (once per throttle), resolved through the outbox", async () => {
  const x = await alertHarness();
  cleanup.push(x.close);
  expect(await pass(x.h, x.s)).toEqual([]);
  const store = x.h.gw.store as unknown as { probeWrite(): Promise<void> };
  const real = store.probeWrite;
  store.probeWrite = async () => {
    throw new Error("database or disk is full");
  };
  await pass(x.h, x.s);
  expect(x.s.json()).toMatchObject([{ event: "firing", condition: "db_write", key: "db_write:database" }]);
  expect(x.s.json()[0].text).toContain("database or disk is full");
  expect(await x.h.gw.store.alerts.history({ limit: 10 })).toEqual([]); // nothing could be queued
  x.h.clock.advance(60);
  await pass(x.h, x.s);
  expect(x.s.got.length).toBe(1); // throttled
  store.probeWrite = real;
  x.h.clock.advance(60);
  expect(await pass(x.h, x.s)).toMatchObject([{ event: "resolved", key: "db_write:database" }]);
});

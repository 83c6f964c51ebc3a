// The rules between findings and messages: throttling of a flapping condition, one summary when
// many fire at once, instances held back while no channel exists, a condition turned off.
import { afterEach, expect, test } from "bun:test";
import { SUMMARY_AT } from "../../src/core/alerts/plan.ts";
import { addChannel, alertHarness, harness, pass, sink } from "./util.ts";

let close = () => {};
afterEach(() => close());

async function setup() {
  const x = await alertHarness();
  close = x.close;
  await x.h.gw.store.setSetting("alert_throttle", "900");
  await pass(x.h, x.s);
  const seen = (name = "pixel7") => x.h.gw.store.recordClientSeen({ kind: "phone", pid: 1001, name, channelId: null, extData: "", lastSeenAt: x.h.clock.now() }, []);
  return { ...x, seen };
}

test("a flapping client: one firing per throttle interval, held back in between, sent once if it still holds", async () => {
  const x = await setup();
  await x.seen();
  x.h.clock.advance(100);
  expect(await pass(x.h, x.s)).toMatchObject([{ event: "firing" }]); // t = 100
  await x.seen();
  expect(await pass(x.h, x.s)).toMatchObject([{ event: "resolved" }]);
  x.h.clock.advance(100); // silent again at t = 200: within 900 s of the last firing message
  expect(await pass(x.h, x.s)).toEqual([]);
  await x.seen();
  expect(await pass(x.h, x.s)).toEqual([]); // its firing was held, so no resolved either
  x.h.clock.advance(100);
  expect(await pass(x.h, x.s)).toEqual([]); // and again
  x.h.clock.advance(700); // t = 1000: 900 s after the last message, still silent
  const [again] = await pass(x.h, x.s);
  expect(again).toMatchObject({ event: "firing", condition: "client_silent" });
  expect(again.text).toContain("came back 2 time(s)");
  await x.seen();
  expect(await pass(x.h, x.s)).toMatchObject([{ event: "resolved" }]);
});

test("with alert_throttle 0 every episode is sent", async () => {
  const x = await setup();
  await x.h.gw.store.setSetting("alert_throttle", "0");
  x.h.gw.forgetSettings();
  for (let i = 0; i < 2; i++) {
    await x.seen();
    x.h.clock.advance(100);
    expect(await pass(x.h, x.s)).toMatchObject([{ event: "firing" }]);
    await x.seen();
    expect(await pass(x.h, x.s)).toMatchObject([{ event: "resolved" }]);
  }
});

test(`more than ${SUMMARY_AT} messages in one pass go out as one summary`, async () => {
  const x = await setup();
  for (let i = 1; i <= SUMMARY_AT + 2; i++) await x.seen(`phone${i}`);
  x.h.clock.advance(100);
  const got = await pass(x.h, x.s);
  expect(got.length).toBe(1);
  expect(got[0]).toMatchObject({ event: "summary", command: "xpay alert history" });
  expect(got[0].items.length).toBe(SUMMARY_AT + 2);
  expect(got[0].text).toContain("7 alerts (7 firing, 0 resolved)");
  expect(got[0].text).toContain('"phone7"');
  // Exactly SUMMARY_AT go out one by one.
  for (let i = 1; i <= SUMMARY_AT; i++) await x.seen(`phone${i}`);
  expect((await pass(x.h, x.s)).map((m) => m.event)).toEqual(Array(SUMMARY_AT).fill("resolved"));
});

test("no channel: nothing is sent and the alert is held; the first channel added gets it", async () => {
  const h = harness();
  const s = sink();
  close = () => (s.stop(), h.close());
  await pass(h, s);
  await h.gw.store.recordClientSeen({ kind: "phone", pid: 0, name: "lonely", channelId: null, extData: "", lastSeenAt: h.clock.now() }, []);
  h.clock.advance(100);
  await pass(h, s);
  expect((await h.gw.store.alerts.activeInstances()).map((i) => [i.key, i.notified])).toEqual([["client_silent:client:1", false]]);
  await addChannel(h, "late", "webhook", { url: s.url, secret: "0123456789abcdef" });
  expect(await pass(h, s)).toMatchObject([{ event: "firing", key: "client_silent:client:1" }]);
});

test("a condition turned off closes its open alerts without a message", async () => {
  const x = await setup();
  await x.seen();
  x.h.clock.advance(100);
  expect(await pass(x.h, x.s)).toMatchObject([{ event: "firing" }]);
  await x.h.gw.store.setSetting("alert_client_silent", "0");
  x.h.gw.forgetSettings();
  expect(await pass(x.h, x.s)).toEqual([]);
  expect(await x.h.gw.store.alerts.activeInstances()).toEqual([]);
});

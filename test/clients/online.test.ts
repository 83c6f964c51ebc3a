// One online rule for monitoring clients: the dashboard and `xpay client list` (core/monitor-clients.ts
// clientStates) and the console's client pages (core/clients/overview.ts) must call the same
// clients online at the same instant: seen within heartbeat_timeout, a V免签 app that never beat
// never seen. Beats go through the real routes; time moves on a ManualClock only.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { clientsOverview, findClient } from "../../src/core/clients/overview.ts";
import { clientStates } from "../../src/core/monitor-clients.ts";
import { harness, type Harness, seed, signed } from "../helpers.ts";
import { appHeartUrl, KEY } from "../vmq/clients.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
});
afterEach(() => h.close());

async function phoneBeat(name: string) {
  const q = new URLSearchParams(signed({ client_name: name, timestamp: h.clock.now() }));
  expect((await h.app.handle(new Request(`http://localhost/api/report/1001/heart?${q}`))).status).toBe(200);
}

/** name -> [online, seconds silent] as each view says it, the client's own page included. */
async function views() {
  const dashboard = Object.fromEntries((await clientStates(h.gw)).clients.map((c) => [c.name, [c.online, c.silentFor]]));
  const rows = (await clientsOverview(h.gw)).rows;
  const pages = Object.fromEntries(rows.map((r) => [r.client.name, [r.online, r.age]]));
  const own = Object.fromEntries(await Promise.all(rows.map(async (r) => {
    const one = (await findClient(h.gw, r.client.id))!;
    return [one.client.name, [one.online, one.age]];
  })));
  return { dashboard, pages, own };
}

test("the dashboard/CLI and the client pages agree at every instant, at the heartbeat_timeout edge too", async () => {
  await h.gw.store.addKeyedClient({ kind: "vmq", pid: 1001, name: "vmq-beats", key: KEY, accountIds: [], now: h.clock.now() });
  await h.gw.store.addKeyedClient({ kind: "vmq", pid: 1001, name: "vmq-never", key: "f".repeat(32), accountIds: [], now: h.clock.now() });
  await phoneBeat("pixel");
  expect((await h.app.handle(new Request(appHeartUrl(String(h.clock.nowMs()))))).status).toBe(200);
  h.clock.advance(30);
  await phoneBeat("redmi"); // 30 s after the others: it crosses the edge 30 s later
  const expected: Record<number, Record<string, [boolean, number | null]>> = {
    0: { pixel: [true, 30], redmi: [true, 0], "vmq-beats": [true, 30], "vmq-never": [false, null] },
    60: { pixel: [true, 90], redmi: [true, 60], "vmq-beats": [true, 90], "vmq-never": [false, null] }, // exactly the timeout: online
    61: { pixel: [false, 91], redmi: [true, 61], "vmq-beats": [false, 91], "vmq-never": [false, null] },
    90: { pixel: [false, 120], redmi: [true, 90], "vmq-beats": [false, 120], "vmq-never": [false, null] },
    91: { pixel: [false, 121], redmi: [false, 91], "vmq-beats": [false, 121], "vmq-never": [false, null] },
  };
  let at = 0;
  for (const [step, want] of Object.entries(expected)) {
    h.clock.advance(Number(step) - at);
    at = Number(step);
    const v = await views();
    expect({ at, ...v }).toEqual({ at, dashboard: want, pages: want, own: want });
  }
});

test("both read the heartbeat_timeout setting", async () => {
  await phoneBeat("pixel");
  h.clock.advance(100);
  await h.gw.store.setSetting("heartbeat_timeout", "120");
  h.gw.forgetSettings();
  const v = await views();
  expect(v).toEqual({ dashboard: { pixel: [true, 100] }, pages: { pixel: [true, 100] }, own: { pixel: [true, 100] } });
});

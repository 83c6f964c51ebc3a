// Issue 22, device history: every accepted beat (heartbeats and payment reports of phones,
// watchers and V免签 apps) extends the client's online interval while it comes within
// heartbeat_timeout; a longer silence opens a new one, so the rows are the online stretches, the
// spaces between them are the gaps, and a month of beats every 30 s is one row. ManualClock only.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { clientDetail } from "../../src/core/clients/detail.ts";
import { deviceHistory } from "../../src/core/clients/history.ts";
import { pruneClientHistory } from "../../src/core/clients/prune.ts";
import { startOfLocalDay } from "../../src/core/stats/calendar.ts";
import { harness, type Harness, postJson, seed, signed } from "../helpers.ts";
import { appHeartUrl, KEY } from "../vmq/clients.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
});
afterEach(() => h.close());

const TZ = "Asia/Shanghai";

async function beat(name = "pixel") {
  const q = new URLSearchParams(signed({ client_name: name, timestamp: h.clock.now() }));
  const res = await h.app.handle(new Request(`http://localhost/api/report/1001/heart?${q}`));
  expect(res.status).toBe(200);
}
const clientId = async (name = "pixel") => (await h.gw.store.listClients()).find((c) => c.name === name)!.id;
const intervals = async (name = "pixel") => h.gw.store.devices.onlineIntervals(await clientId(name), 0, 1000);

describe("recording", () => {
  test("beats within heartbeat_timeout (90 s) extend one interval; a longer silence opens the next", async () => {
    const t0 = h.clock.now();
    await beat();
    for (let i = 0; i < 10; i++) {
      h.clock.advance(30);
      await beat();
    }
    h.clock.advance(90); // exactly the timeout: still the same stretch
    await beat();
    h.clock.advance(91); // one second more: a gap
    await beat();
    expect(await intervals()).toEqual([
      { startAt: t0, endAt: t0 + 390, beats: 12 },
      { startAt: t0 + 481, endAt: t0 + 481, beats: 1 },
    ]);
  });

  test("10,000 beats 30 s apart (three and a half days) are one row; an outage adds one", async () => {
    const t0 = h.clock.now();
    for (let i = 0; i < 10_000; i += 1) {
      // Beats straight into the store, as markClientSeen sends them (the HTTP path is tested above).
      await h.gw.store.recordClientSeen({ kind: "phone", pid: 1001, name: "pixel", channelId: null, extData: "", lastSeenAt: t0 + i * 30 + (i >= 5000 ? 600 : 0) }, [], { gap: 90 });
    }
    const rows = await intervals();
    expect(rows.length).toBe(2);
    expect(rows.map((r) => r.beats)).toEqual([5000, 5000]);
  });

  test("the timeout in force when the beats come decides; a setting change applies from then on", async () => {
    await h.gw.store.setSetting("heartbeat_timeout", "300");
    h.gw.forgetSettings();
    await beat();
    h.clock.advance(200);
    await beat();
    expect((await intervals()).length).toBe(1);
  });

  test("payment reports, third-account watchers and V免签 apps beat too", async () => {
    const t0 = h.clock.now();
    // A forwarded notification that is not a payment still shows the phone is alive.
    const content = JSON.stringify({ package_name: "com.tencent.mm", title: "群聊", msg: "hello", device_name: "pixel" });
    await postJson(h, "/api/report/1001", signed({ from: "pixel", content, timestamp: h.clock.now() }));
    expect(await intervals()).toEqual([{ startAt: t0, endAt: t0, beats: 1 }]);

    await h.gw.store.setSetting("third_account_secret", "third secret value");
    h.gw.forgetSettings();
    const q = new URLSearchParams(signed({ account: "watcher1", type: 1, timestamp: h.clock.now() }, "third secret value"));
    expect((await h.app.handle(new Request(`http://localhost/api/report/third-account/heart?${q}`))).status).toBe(200);
    expect((await intervals("watcher1")).length).toBe(1);

    await h.gw.store.addKeyedClient({ kind: "vmq", pid: 1001, name: "vmq-phone", key: KEY, accountIds: [], now: h.clock.now() });
    h.clock.advance(1);
    const res = await h.app.handle(new Request(appHeartUrl(String(h.clock.nowMs()))));
    expect(await res.json()).toMatchObject({ code: 1 });
    expect(await intervals("vmq-phone")).toEqual([{ startAt: t0 + 1, endAt: t0 + 1, beats: 1 }]);
  });
});

describe("reading", () => {
  test("gaps over the timeout are marked, from the last beat to the next; an ongoing silence too", () => {
    const hist = deviceHistory(
      [
        { startAt: 1000, endAt: 2000, beats: 34 },
        { startAt: 2300, endAt: 2400, beats: 4 },
        { startAt: 2450, endAt: 2460, beats: 2 }, // 50 s after the last: a timeout raised since joins them
      ],
      { from: 500, to: 3000, timeout: 90 },
    );
    expect(hist.gaps).toEqual([
      { from: 2000, to: 2300, seconds: 300, ongoing: false },
      { from: 2460, to: 3000, seconds: 540, ongoing: true },
    ]);
    expect(hist.spans).toEqual([
      { from: 1000, to: 2090, beats: 34 },
      { from: 2300, to: 2550, beats: 6 },
    ]);
    expect(hist.onlineSeconds).toBe(1090 + 250);
    // Cut to a range: only what falls inside counts.
    expect(deviceHistory([{ startAt: 1000, endAt: 2000, beats: 34 }], { from: 1500, to: 1800, timeout: 90 })).toMatchObject({ onlineSeconds: 300, gaps: [] });
  });

  test("the client page's history: gaps with ManualClock, online today in the operator's zone", async () => {
    const dayStart = startOfLocalDay(h.clock.now(), TZ);
    h.clock.advance(dayStart + 3600 - h.clock.now()); // 01:00 local
    for (let i = 0; i < 20; i++) {
      await beat();
      h.clock.advance(30);
    }
    h.clock.advance(600); // silent 10 minutes
    for (let i = 0; i < 4; i++) {
      await beat();
      h.clock.advance(30);
    }
    h.clock.advance(60); // 60 s after the last beat: still online
    const c = (await h.gw.store.devices.getClient(await clientId()))!;
    const d = await clientDetail(h.gw, c, { days: 1, timeout: 90, tz: TZ });
    expect(d.history.gaps.map((g) => g.seconds)).toEqual([570 + 60]);
    // 20 beats 30 s apart + the timeout after the last; then 4 beats and 90 s more up to now (the timeout has not run out).
    expect(d.today.onlineSeconds).toBe(19 * 30 + 90 + (3 * 30 + 90));
    expect(d.today.gaps).toEqual(d.history.gaps);
    h.clock.advance(1); // the last beat was 90 s ago: from now on it is a silence, counted from that beat
    const later = await clientDetail(h.gw, c, { days: 1, timeout: 90, tz: TZ });
    expect(later.history.gaps.at(-1)).toMatchObject({ ongoing: true, seconds: 91 });
  });
});

describe("retention", () => {
  test("client_history_days: stretches that ended before are pruned, in batches; 0 keeps them", async () => {
    await beat();
    h.clock.advance(86_400);
    await beat();
    h.clock.advance(86_400 * 2);
    await beat();
    expect((await intervals()).length).toBe(3);
    await h.gw.store.setSetting("client_history_days", "0");
    h.gw.forgetSettings();
    expect(await pruneClientHistory(h.gw)).toBe(0);
    await h.gw.store.setSetting("client_history_days", "2");
    h.gw.forgetSettings();
    expect(await pruneClientHistory(h.gw, { batch: 1 })).toBe(1);
    expect((await intervals()).length).toBe(2);
    h.clock.advance(86_400);
    expect(await pruneClientHistory(h.gw, { batch: 1 })).toBe(1);
    expect((await intervals()).length).toBe(1);
  });

  test("a stretch that began before the cut but ended after it is kept", async () => {
    const t0 = h.clock.now();
    for (let i = 0; i < 10; i++) {
      await beat();
      h.clock.advance(86_400 / 10); // beats far apart: one stretch per beat...
    }
    await h.gw.store.setSetting("heartbeat_timeout", "3600");
    await h.gw.store.setSetting("client_history_days", "1");
    h.gw.forgetSettings();
    for (let i = 0; i < 30; i++) {
      await beat(); // ...then one long stretch over the next day
      h.clock.advance(3000);
    }
    h.clock.advance(3600);
    await beat(); // a silence files the long stretch in client_online; this beat starts the current one
    const before = await intervals();
    const current = before.pop()!;
    const long = before.at(-1)!;
    expect(long.startAt).toBeLessThan(h.clock.now() - 86_400);
    expect(await pruneClientHistory(h.gw)).toBe(before.length - 1);
    expect(await intervals()).toEqual([long, current]);
    expect(long.startAt).toBeGreaterThan(t0);
  });
});

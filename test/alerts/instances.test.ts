// Several xpay instances on one database run the alert loop at once (two servers on one SQLite
// file; several on one PostgreSQL database): the core's own passes evaluate at the same time and
// the alert fires once; their delivery passes send it once; it resolves once.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { deliverAlerts } from "../../src/core/alerts/deliver.ts";
import { evaluateAlerts } from "../../src/core/alerts/evaluate.ts";
import { ManualClock } from "../../src/core/clock.ts";
import type { Gateway } from "../../src/core/gateway.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import { PostgresStore } from "../../src/store/postgres/index.ts";
import { BASE, harness, SECRET } from "../helpers.ts";
import { type PgCluster, startCluster, withPostgres } from "../pg/cluster.ts";
import { sink, WEBHOOK_SECRET } from "./util.ts";

const INSTANCES = 3;

/** `gws` are instances on one empty database sharing `clock`; each round every one evaluates, then every one delivers. */
async function fireOnce(gws: Gateway[], clock: ManualClock): Promise<void> {
  const s = sink();
  try {
    const [gw] = gws as [Gateway];
    await gw.store.addMerchant({ pid: 1001, name: "Shop", secret: SECRET, now: clock.now() });
    const added = await gw.store.alerts.addChannel({ name: "hook", type: "webhook", config: { url: `${s.url}/alerts`, secret: WEBHOOK_SECRET }, now: clock.now() });
    expect(added.kind).toBe("added");
    const round = async () => {
      await Promise.all(gws.map((g) => evaluateAlerts(g)));
      await Promise.all(gws.map((g) => deliverAlerts(g)));
      return s.json().map((m: { event: string; key: string }) => `${m.event} ${m.key}`);
    };
    expect(await round()).toEqual([]); // starts the event cursors
    await gw.store.recordClientSeen({ kind: "phone", pid: 1001, name: "pixel7", channelId: null, extData: "", lastSeenAt: clock.now() }, []);
    clock.advance(91);
    const fired = await round();
    expect(fired).toEqual([expect.stringMatching(/^firing client_silent:client:\d+$/)]);
    clock.advance(600);
    expect(await round()).toEqual(fired);
    await gw.store.recordClientSeen({ kind: "phone", pid: 1001, name: "pixel7", channelId: null, extData: "", lastSeenAt: clock.now() }, []);
    expect(await round()).toEqual([...fired, fired[0]!.replace("firing", "resolved")]);
  } finally {
    s.stop();
  }
}

test("SQLite: servers on one file evaluating at once fire, send and resolve an alert once", async () => {
  const h = harness();
  const others = Array.from({ length: INSTANCES - 1 }, () => openGateway({ db: h.dbPath, baseUrl: BASE, clock: h.clock }));
  try {
    await fireOnce([h.gw, ...others], h.clock);
  } finally {
    for (const g of others) g.store.close();
    h.close();
  }
});

withPostgres(() => {
  describe("PostgreSQL", () => {
    let cluster: PgCluster;
    beforeAll(async () => {
      cluster = await startCluster();
    }, 120_000);
    afterAll(() => cluster?.stop());

    test("instances on one database evaluating at once fire, send and resolve an alert once", async () => {
      const url = await cluster.createDatabase("alert_instances");
      const clock = new ManualClock();
      const stores = Array.from({ length: INSTANCES }, () => PostgresStore.open(url, { max: 4 }));
      try {
        await stores[0]!.ready; // the first migrates
        await fireOnce(stores.map((store) => openGateway({ db: url, store, baseUrl: BASE, clock })), clock);
      } finally {
        await Promise.all(stores.map((s) => s.end()));
      }
    }, 60_000);
  });
});

// The report settlement's round trips to PostgreSQL, counted on the wire: a loopback proxy between
// the store and the cluster counts each time the client speaks again after the server answered
// (one round trip; statements sent together are one). A paid report with a dedupe key is three:
// BEGIN with the key's lock and check and the guessed candidates, the payment's update, the outbox
// row and the stored report with COMMIT (six before, docs/benchmarks.md 2026-12-02 18:10); a batch
// of delivery acknowledgements is two. And pipelinedUnit's COMMIT sent behind a failing statement
// commits nothing.
import { SQL, type Socket } from "bun";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PostgresStore } from "../../src/store/postgres/index.ts";
import { pipelinedUnit } from "../../src/store/postgres/tx.ts";
import { account, claim, create, merchant, settleUnit } from "../store-contract/harness.ts";
import { type PgCluster, startCluster, withPostgres } from "./cluster.ts";

interface Counted {
  turns: number;
}

/** A TCP proxy to `port` that counts, over every connection, the client's turns to speak. */
function countingProxy(port: number): { port: number; counted: Counted; stop(): void } {
  const counted: Counted = { turns: 0 };
  type Side = { peer: Socket<Side> | null; pending: Uint8Array[]; lastFromServer: boolean; client: boolean };
  const server = Bun.listen<Side>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      async open(client) {
        client.data = { peer: null, pending: [], lastFromServer: true, client: true };
        const upstream = await Bun.connect<Side>({
          hostname: "127.0.0.1",
          port,
          socket: {
            data(s, chunk) {
              client.data.lastFromServer = true;
              client.write(chunk);
            },
            close() {
              client.end();
            },
          },
        });
        upstream.data = { peer: client, pending: [], lastFromServer: false, client: false };
        client.data.peer = upstream;
        for (const c of client.data.pending) upstream.write(c);
        client.data.pending = [];
      },
      data(client, chunk) {
        if (client.data.lastFromServer) counted.turns++;
        client.data.lastFromServer = false;
        if (client.data.peer) client.data.peer.write(chunk);
        else client.data.pending.push(new Uint8Array(chunk));
      },
      close(client) {
        client.data.peer?.end();
      },
    },
  });
  return { port: server.port, counted, stop: () => server.stop(true) };
}

withPostgres(() => {
  let cluster: PgCluster;
  let url = "";
  let proxy: ReturnType<typeof countingProxy>;
  beforeAll(async () => {
    cluster = await startCluster();
    url = await cluster.createDatabase("round_trips");
    proxy = countingProxy(cluster.port);
  });
  afterAll(() => {
    proxy?.stop();
    cluster?.stop();
  });

  describe("the report settlement on PostgreSQL", () => {
    test("a paid report with a dedupe key takes three round trips once its statements are prepared; a guess on a stale directory still pays the right order", async () => {
      const store = PostgresStore.open(url.replace(`:${cluster.port}/`, `:${proxy.port}/`), { max: 1 });
      const other = PostgresStore.open(url, { max: 1 });
      try {
        await store.ready;
        await merchant(store);
        await account(store);
        const settle = async (key: string) => {
          const order = await create(store);
          const before = proxy.counted.turns;
          const r = await store.settleReport(settleUnit(claim({ amount: order.tradeAmount! }), { dedupeKey: key }));
          expect({ outcome: r.outcome, tradeNo: r.tradeNo, paid: r.pay?.kind }).toEqual({ outcome: "matched", tradeNo: order.tradeNo, paid: "paid" });
          return proxy.counted.turns - before;
        };
        // The first ones prepare their statements (a round trip each) and keep the directory.
        await settle("warm-1");
        await settle("warm-2");
        expect(await settle("k-1")).toBe(3);
        expect(await settle("k-2")).toBe(3);

        // Another instance adds an account and an order on it: this store's kept directory is stale,
        // its guess reads the old accounts' candidates, and the version the check reads drops it.
        await account(other, { payType: "wxpay", code: "wx_round_trips" });
        const y = await create(other, { payType: "wxpay" });
        const before = proxy.counted.turns;
        const r = await store.settleReport(settleUnit(claim({ amount: y.tradeAmount!, payType: "wxpay" }), { dedupeKey: "k-y" }));
        expect({ outcome: r.outcome, tradeNo: r.tradeNo }).toEqual({ outcome: "matched", tradeNo: y.tradeNo });
        expect(proxy.counted.turns - before).toBeGreaterThan(3);
        expect((await store.getOrder(y.tradeNo))!.status).toBe(2);

        // A copy of a settled report: a duplicate, nothing paid twice.
        const again = await store.settleReport(settleUnit(claim({ amount: y.tradeAmount!, payType: "wxpay" }), { dedupeKey: "k-y" }));
        expect(again.outcome).toBe("duplicate");

        // The delivery's acknowledgements, a batch of them: two round trips (BEGIN with the attempts
        // and the rows' update; the merchants' rows with COMMIT), five before.
        const paid = await Promise.all([1, 2, 3, 4].map(async (i) => {
          const o = await create(store);
          return (await store.settleReport(settleUnit(claim({ amount: o.tradeAmount! }), { dedupeKey: `ack-${i}` }))).pay!;
        }));
        const ids = paid.map((p) => (p.kind === "paid" ? p.notificationId! : 0));
        const ack = (at: number) => ({ attempt: { attemptedAt: at, durationMs: 1, httpStatus: 200, body: "success", error: "", acknowledged: true }, status: "delivered" as const, nextAttemptAt: at });
        // A batch of two prepares the statements of a batch of two (the rows' ids are listed: listed.ts).
        await Promise.all(ids.slice(0, 2).map((id) => store.recordNotificationAttempt(id, ack(Date.now()))));
        const acked = proxy.counted.turns;
        await Promise.all(ids.slice(2).map((id) => store.recordNotificationAttempt(id, ack(Date.now()))));
        expect(proxy.counted.turns - acked).toBe(2);
        for (const t of paid) if (t.kind === "paid") expect((await store.getNotification(t.order.tradeNo))!.status).toBe("delivered");
      } finally {
        await store.end();
        await other.end();
      }
    });

    test("pipelinedUnit: a statement that fails beside the COMMIT commits nothing of the unit, and the connection goes on", async () => {
      const sql = new SQL(url, { max: 1 });
      try {
        await sql`CREATE TABLE pipelined_t (id INT PRIMARY KEY)`;
        await sql`INSERT INTO pipelined_t VALUES (1)`;
        const failed = pipelinedUnit(sql, async (tx, end) => {
          await tx`INSERT INTO pipelined_t VALUES (2)`;
          return end.commitWith(tx`INSERT INTO pipelined_t VALUES (1)`);
        });
        await expect(failed).rejects.toThrow(/duplicate key/);
        expect((await sql`SELECT id FROM pipelined_t ORDER BY id`).map((r: { id: number }) => r.id)).toEqual([1]);
        // A unit that ends without commitWith commits when its work returns; a throw rolls it back.
        await pipelinedUnit(sql, async (tx) => void (await tx`INSERT INTO pipelined_t VALUES (3)`));
        await expect(pipelinedUnit(sql, async (tx) => {
          await tx`INSERT INTO pipelined_t VALUES (4)`;
          throw new Error("the work changed its mind");
        })).rejects.toThrow("changed its mind");
        const [rows] = await pipelinedUnit(sql, async (tx, end) => end.commitWith(tx`SELECT array_agg(id ORDER BY id) AS ids FROM pipelined_t`));
        expect((rows as { ids: number[] }[])[0]!.ids).toEqual([1, 3]);
      } finally {
        await sql.close();
      }
    });
  });
});

// The instances on one PostgreSQL database share its cores for their create batches
// (src/store/postgres/call-share.ts): the budget (XPAY_PG_CREATE_CALLS, this host's cores for a
// server on this host, none for a remote one), each instance's part of it, and the count of the
// instances creating now, read from pg_stat_activity by the name every store gives its connections.
import { describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { availableParallelism } from "node:os";
import { APPLICATION_NAME, applicationName, CallShare, createCallBudget, isLocalServer, MAX_PART, otherCreatingInstances, partOf } from "../../src/store/postgres/call-share.ts";
import { PostgresStore } from "../../src/store/postgres/index.ts";
import { createUnit, merchant, newOrder } from "../store-contract/harness.ts";
import { clusterPerFile, withPostgres } from "./cluster.ts";

describe("the budget and an instance's part", () => {
  test("a server on this host: loopback addresses and sockets; any other host is remote", () => {
    for (const u of ["postgres://x@127.0.0.1:5432/db", "postgresql://x@localhost/db", "postgres://x@[::1]:5432/db", "postgres:///db", "postgres://x@/db?host=/var/run/postgresql"]) {
      expect(isLocalServer(u)).toBe(true);
    }
    for (const u of ["postgres://x@10.0.0.5/db", "postgres://x@db.internal:5432/db", "postgres://x@128.0.0.1/db", "not a url"]) expect(isLocalServer(u)).toBe(false);
  });

  test("XPAY_PG_CREATE_CALLS first; else this host's cores for a local server; else none", () => {
    expect(createCallBudget("postgres://x@10.0.0.5/db", { XPAY_PG_CREATE_CALLS: "6" })).toBe(6);
    expect(createCallBudget("postgres://x@127.0.0.1/db", { XPAY_PG_CREATE_CALLS: "3" })).toBe(3);
    expect(createCallBudget("postgres://x@127.0.0.1/db", {})).toBe(availableParallelism());
    expect(createCallBudget("postgres://x@127.0.0.1/db", { XPAY_PG_CREATE_CALLS: "0" })).toBe(availableParallelism());
    expect(createCallBudget("postgres://x@10.0.0.5/db", { XPAY_PG_CREATE_CALLS: "many" })).toBeNull();
  });

  test("the connection name keeps the pid whatever the host name, in what PostgreSQL keeps (63 bytes of printable ASCII)", () => {
    expect(applicationName(4242, "pay-1")).toBe("xpay 4242@pay-1");
    const long = applicationName(4242, "h".repeat(100));
    expect(long).toHaveLength(63);
    expect(long.startsWith("xpay 4242@")).toBe(true);
    expect(applicationName(7, "支付-主机")).toBe("xpay 7@??-??");
    expect(APPLICATION_NAME).toMatch(/^xpay \d+@[\x20-\x7e]*$/);
  });

  test("each instance takes the budget over the instances, at least 1 and at most 2", () => {
    expect(partOf(null, 5)).toBe(MAX_PART);
    expect(partOf(2, 1)).toBe(2);
    expect(partOf(2, 2)).toBe(1);
    expect(partOf(2, 3)).toBe(1);
    expect(partOf(8, 3)).toBe(2);
    expect(partOf(32, 1)).toBe(2);
    expect(partOf(1, 1)).toBe(1);
  });

  test("XPAY_PG_CREATE_BATCHES fixes the part, and no budget reads nothing", () => {
    const never = () => Promise.reject(new Error("read"));
    expect(new CallShare(never, 2, 3).current()).toBe(3);
    expect(new CallShare(never, null, null).current()).toBe(MAX_PART);
  });
});

withPostgres(() => {
  const cluster = clusterPerFile();

  test("the instances that ran a batch lately are counted by their connections' names, this one left out", async () => {
    const url = await cluster().createDatabase("share");
    const store = PostgresStore.open(url, { max: 2 });
    const peer = (name: string) => new SQL(url, { max: 1, connection: { application_name: name } });
    const creating = peer("xpay 41@otherhost");
    const idle = peer("xpay 42@otherhost");
    const foreign = peer("psql");
    const admin = new SQL(url, { max: 1 });
    try {
      await merchant(store);
      const r = await store.createOrder(createUnit(newOrder({ outTradeNo: "S1", payType: "" })));
      expect(r.kind).toBe("created");
      // This store's connections carry the process's name.
      const names = (await admin`SELECT DISTINCT application_name FROM pg_stat_activity WHERE datname = current_database()`).map((x: { application_name: string }) => x.application_name);
      expect(names).toContain(APPLICATION_NAME);
      // Another instance's batch (an empty one), another instance that only read, and a tool that is not xpay running a batch.
      await creating`SELECT * FROM xpay_create_orders(${"[]"}::text::jsonb)`;
      await idle`SELECT 1`;
      await foreign`SELECT * FROM xpay_create_orders(${"[]"}::text::jsonb)`;
      const sql = await (store as unknown as { db(): Promise<SQL> }).db();
      expect(await otherCreatingInstances(sql)).toBe(1);
      // Seen from the peer's side, this store is the other one.
      expect(await otherCreatingInstances(sql, "xpay 41@otherhost")).toBe(1);
      await idle`SELECT * FROM xpay_create_orders(${"[]"}::text::jsonb)`;
      expect(await otherCreatingInstances(sql)).toBe(2);

      // A share over a budget of 2 takes 2 until it has read, then 1 (three instances creating).
      const share = new CallShare(async () => sql, 2, null);
      expect(share.current(1_000_000)).toBe(2);
      for (let i = 0; i < 100 && share.current(1_000_000) !== 1; i++) await Bun.sleep(10);
      expect(share.current(1_000_000)).toBe(1);
    } finally {
      await store.end();
      await Promise.all([creating.close(), idle.close(), foreign.close(), admin.close()]);
    }
  });
});

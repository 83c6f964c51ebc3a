// A report's heartbeat on PostgreSQL is written on the beats' pool (open.ts openBeatPool), whose
// sessions commit without waiting for their WAL flush; everything else, payments first, on the
// store's pool with the server's own setting. What the beat writes is the store contract's
// (test/store-contract); here, which sessions write what.
import { expect, test } from "bun:test";
import { SQL } from "bun";
import { BEATS_APPLICATION_NAME, openBeatPool, openPool } from "../../src/store/postgres/open.ts";
import { APPLICATION_NAME } from "../../src/store/postgres/call-share.ts";
import { account, create, merchant, payUnit, T0 } from "../store-contract/harness.ts";
import { clusterPerFile, withPostgres } from "./cluster.ts";
import { onNewDatabase } from "./new-database.ts";

/** Where a session's synchronous_commit comes from, and its value. */
const syncCommit = async (sql: SQL) => (await sql`SELECT setting, source FROM pg_settings WHERE name = 'synchronous_commit'`)[0] as { setting: string; source: string };

withPostgres(() => {
  const cluster = clusterPerFile();

  test("the beats' sessions commit without waiting for the flush; the store's keep the server's setting", async () => {
    const url = await cluster().createDatabase("beats_pool");
    const beats = openBeatPool(url);
    const { sql, ready } = openPool(url, "write", 2);
    try {
      await ready;
      expect(await syncCommit(beats)).toEqual({ setting: "off", source: "client" });
      expect((await syncCommit(sql)).source).not.toBe("client");
      expect((await beats`SELECT current_setting('application_name') AS n`)[0].n).toBe(BEATS_APPLICATION_NAME);
      expect(BEATS_APPLICATION_NAME.startsWith(APPLICATION_NAME.slice(0, 57))).toBe(true);
      expect(Buffer.byteLength(BEATS_APPLICATION_NAME)).toBeLessThanOrEqual(63);
    } finally {
      await Promise.all([beats.close(), sql.close()]);
    }
  }, 60_000);

  test("a heartbeat is written on a beats' session, a payment never", async () => {
    await onNewDatabase(cluster, "beats_route", { max: 2 }, async (store, sql) => {
      await merchant(store);
      const acc = await account(store);
      const order = await create(store, { amount: 1000 });
      await store.recordClientSeen({ kind: "phone", pid: 1001, name: "phone-1", channelId: null, extData: "", lastSeenAt: T0 + 5 }, [acc.id], { gap: 60 });
      expect((await store.payOrder(payUnit(order.tradeNo, T0 + 6))).kind).toBe("paid");
      // Committed, and seen from another session.
      const [client] = await sql`SELECT last_seen_at, online_beats FROM clients WHERE name = 'phone-1'`;
      expect(Number(client.last_seen_at)).toBe(T0 + 5);
      expect(Number(client.online_beats)).toBe(1);
      expect(Number((await sql`SELECT last_seen_at FROM channel_accounts WHERE id = ${acc.id}`)[0].last_seen_at)).toBe(T0 + 5);
      // Each connection's last statement, by the name of the pool it belongs to.
      const sessions = (await sql`
        SELECT application_name AS name, query FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name IN (${APPLICATION_NAME}, ${BEATS_APPLICATION_NAME})`) as { name: string; query: string }[];
      // (a connection the pool opened and has not used yet shows no statement)
      const ran = (name: string) => sessions.filter((s) => s.name === name).map((s) => s.query.trim()).filter((q) => q !== "");
      expect(ran(BEATS_APPLICATION_NAME).length).toBeGreaterThan(0);
      for (const q of ran(BEATS_APPLICATION_NAME)) expect(q).toStartWith("SELECT xpay_clients_seen(");
      expect(ran(APPLICATION_NAME).length).toBeGreaterThan(0); // the payment's (its last statement: COMMIT)
      for (const q of ran(APPLICATION_NAME)) expect(q).not.toContain("xpay_client");
    });
  }, 60_000);
});

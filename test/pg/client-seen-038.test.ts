// Migration 038 on PostgreSQL: a report's heartbeat is one call of xpay_client_seen, its own
// transaction. What it writes is the store contract's (test/store-contract/clients.contract.ts,
// devices.contract.ts); here, what the function adds on PostgreSQL: an account's row is written only when its second moves (every UPDATE is a new row version there,
// also one that changes nothing).
import { expect, test } from "bun:test";
import { account, merchant, T0 } from "../store-contract/harness.ts";
import { clusterPerFile, withPostgres } from "./cluster.ts";
import { onNewDatabase } from "./new-database.ts";

withPostgres(() => {
  const cluster = clusterPerFile();

  test("a beat is one transaction with its client's row; an account's row gets a new version only when its second moves", async () => {
    await onNewDatabase(cluster, "clientseen", { max: 2 }, async (store, sql) => {
      await merchant(store);
      const a = await account(store, { code: "A" });
      const b = await account(store, { code: "B" });
      const phone = { kind: "phone" as const, pid: 1001, name: "pixel", channelId: null, extData: "" };
      const versions = async (): Promise<{ id: number; x: string; seen: number }[]> => {
        const rows = (await sql`SELECT id, xmin::text AS x, last_seen_at FROM channel_accounts ORDER BY id`) as { id: number; x: string; last_seen_at: string }[];
        return rows.map((r: { id: number; x: string; last_seen_at: string }) => ({ id: Number(r.id), x: r.x, seen: Number(r.last_seen_at) }));
      };

      await store.recordClientSeen({ ...phone, lastSeenAt: T0 }, [b.id, a.id, b.id], { gap: 60 });
      const first = await versions();
      expect(first.map((r) => r.seen)).toEqual([T0, T0]);

      // The same second again: the client's beat is counted, the accounts' rows are left as they are.
      await store.recordClientSeen({ ...phone, lastSeenAt: T0 }, [a.id, b.id], { gap: 60 });
      expect(await versions()).toEqual(first);
      // An older beat (another instance's, late) moves nothing back.
      await store.recordClientSeen({ ...phone, lastSeenAt: T0 - 5 }, [a.id], { gap: 60 });
      expect(await versions()).toEqual(first);
      const [client] = await sql`SELECT online_beats, last_seen_at FROM clients WHERE name = 'pixel'`;
      expect({ beats: Number(client.online_beats), seen: Number(client.last_seen_at) }).toEqual({ beats: 3, seen: T0 });

      // The next second: both accounts move, in the one transaction of the beat, with the client's row.
      await store.recordClientSeen({ ...phone, lastSeenAt: T0 + 1 }, [a.id, b.id], { gap: 60 });
      const moved = await versions();
      expect(moved.map((r) => r.seen)).toEqual([T0 + 1, T0 + 1]);
      expect(moved.every((r, i) => r.x !== first[i]!.x)).toBe(true);
      const [row] = await sql`SELECT xmin::text AS x FROM clients WHERE name = 'pixel'`;
      expect(new Set([...moved.map((r) => r.x), row.x]).size).toBe(1);
    });
  }, 60_000);
});

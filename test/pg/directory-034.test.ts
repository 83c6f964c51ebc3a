// Migration 034 on PostgreSQL: the directory version is kept by the same rules as SQLite's. A
// create's stamp, a heartbeat's last_seen_at and a statement that sets `enabled` to the value it
// has leave it (and the store's kept answer) alone; adding, binding and removing a keyed client,
// and disabling an account, move it.
import { expect, test } from "bun:test";
import { account, create, merchant, T0 } from "../store-contract/harness.ts";
import { clusterPerFile, withPostgres } from "./cluster.ts";
import { onNewDatabase } from "./new-database.ts";

withPostgres(() => {
  const cluster = clusterPerFile();

  test("the version moves with what the directory holds, not with the stamps", async () => {
    await onNewDatabase(cluster, "directory", { max: 2 }, async (store, sql) => {
      const version = async () => Number((await sql`SELECT v FROM directory_version`)[0].v);
      await merchant(store);
      const a = await account(store);
      let v = await version();
      await create(store);
      await sql`UPDATE channel_accounts SET last_seen_at = ${T0 + 9} WHERE id = ${a.id}`;
      await store.updateChannel(a.id, { enabled: true, lastSeenAt: T0 + 10 }); // enabled as it was
      expect(await version()).toBe(v);
      const kept = await store.directory();
      expect(await store.directory()).toBe(kept); // nothing moved: nothing read again
      const steps: [string, () => Promise<unknown>][] = [];
      let id = 0;
      steps.push(["client added", async () => {
        const r = await store.addKeyedClient({ kind: "report", pid: 1001, name: "pixel", key: "k", accountIds: [], now: T0 });
        if (r.kind === "added") id = r.client.id;
      }]);
      steps.push(["client bound", () => store.bindKeyedClient(id, [a.id])]);
      steps.push(["account disabled", () => store.updateChannel(a.id, { enabled: false })]);
      steps.push(["client removed", () => store.removeKeyedClient(id)]);
      for (const [what, step] of steps) {
        await step();
        const now = await version();
        expect({ what, moved: now !== v }).toEqual({ what, moved: true });
        v = now;
      }
    });
  }, 60_000);
});

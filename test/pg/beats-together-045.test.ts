// Migration 045 on PostgreSQL: the beats that wait while an instance's last call runs are written in
// one call of xpay_clients_seen (src/store/postgres/beats.ts). What they write must be what the
// same beats write one call each (038's xpay_client_seen, the path before): checked on random beats,
// with the calls counted, and a beat that cannot be written failing only its own caller.
import { expect, test } from "bun:test";
import type { SQL } from "bun";
import { type Beat, mergeBeats } from "../../src/store/postgres/beats.ts";
import { account, merchant, T0 } from "../store-contract/harness.ts";
import { clusterPerFile, withPostgres } from "./cluster.ts";
import { onNewDatabase } from "./new-database.ts";

const phone = (name: string, seen: number, o: Partial<Beat["client"]> = {}): Beat["client"] => ({
  kind: "phone", pid: 1001, name, channelId: null, extData: "", lastSeenAt: seen, ...o,
});

test("a run of one client's beats in one second is one element counting them; the accounts at their latest second, by id", () => {
  const m = mergeBeats([
    { client: phone("b", T0), accountIds: [7], history: { gap: 60 }, o: {} },
    { client: phone("a", T0, { channelId: 3 }), accountIds: [9, 2], history: { gap: 60 }, o: {} },
    { client: phone("b", T0, { extData: "x" }), accountIds: [2], history: { gap: 60 }, o: {} },
    { client: phone("a", T0, { extData: "y" }), accountIds: [], history: { gap: 60 }, o: {} },
    { client: phone("a", T0 + 1), accountIds: [9], history: { gap: 60 }, o: {} },
    { client: phone("a", T0 + 1), accountIds: [], o: {} }, // no history: not merged with one that keeps it
    { client: phone("b", T0), accountIds: [], history: { gap: 60 }, o: { onlyListed: true } },
  ]);
  expect(m.beats.map((b) => [b.name, b.seen, b.n, b.history, b.only_listed, b.channel, b.ext])).toEqual([
    ["a", T0, 2, true, false, 3, "y"],
    ["a", T0 + 1, 1, true, false, null, ""],
    ["a", T0 + 1, 1, false, false, null, ""],
    ["b", T0, 2, true, false, null, "x"],
    ["b", T0, 1, true, true, null, ""],
  ]);
  expect(m.accounts).toEqual([2, 7, 9]);
  expect(m.seen).toEqual([T0, T0, T0 + 1]);
});

/** What the beats left: clients, their finished stretches, the accounts' last seconds. */
async function written(sql: SQL) {
  const clients = await sql`SELECT kind, pid, name, channel_id, ext_data, last_seen_at, online_since, online_beats FROM clients ORDER BY kind, pid, name`;
  const stretches = await sql`SELECT c.name, o.start_at, o.end_at, o.beats FROM client_online o JOIN clients c ON c.id = o.client_id ORDER BY c.name, o.start_at`;
  const accounts = await sql`SELECT id, last_seen_at FROM channel_accounts ORDER BY id`;
  return JSON.parse(JSON.stringify({ clients, stretches, accounts }));
}

/** Random beats of five clients: seconds that repeat, move on, jump past the gap or come late. */
function randomBeats(accountIds: number[], count: number, seed: number): Beat[] {
  let x = seed;
  const rnd = (n: number) => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x % n;
  };
  const clock = new Map<string, number>();
  const beats: Beat[] = [];
  for (let i = 0; i < count; i++) {
    const name = `phone-${rnd(5)}`;
    const step = [0, 0, 0, 1, 2, 75, -4][rnd(7)]!;
    const seen = (clock.get(name) ?? T0) + step;
    if (step >= 0) clock.set(name, seen);
    const ids = accountIds.filter(() => rnd(3) === 0);
    beats.push({
      client: phone(name, seen, { channelId: rnd(4) === 0 ? rnd(3) + 1 : null, extData: rnd(4) === 0 ? `e${rnd(9)}` : "" }),
      accountIds: ids,
      history: rnd(6) === 0 ? undefined : { gap: 60 },
      o: { onlyListed: rnd(8) === 0 },
    });
  }
  return beats;
}

withPostgres(() => {
  const cluster = clusterPerFile();

  test("beats written together leave what the same beats leave one call each, in far fewer calls", async () => {
    for (const seed of [1, 2, 3]) {
      await onNewDatabase(cluster, `one_each_${seed}`, { max: 2 }, async (one, oneSql) => {
        await onNewDatabase(cluster, `together_${seed}`, { max: 2 }, async (together, togetherSql) => {
          const ids: number[] = [];
          for (const s of [one, together]) await merchant(s);
          for (let k = 0; k < 6; k++) {
            const a = await account(one, { code: `A${k}` });
            const b = await account(together, { code: `A${k}` });
            expect(b.id).toBe(a.id);
            ids.push(a.id);
          }
          const beats = randomBeats(ids, 400, seed);
          // One call each, in arrival order: 038's function, what every beat was before 045.
          for (const { client: c, accountIds, history, o } of beats) {
            await oneSql`SELECT xpay_client_seen(${c.kind}, ${c.pid}::bigint, ${c.name}, ${c.channelId}::bigint, ${c.extData}, ${c.lastSeenAt}::bigint,
              ${history !== undefined}::boolean, ${history?.gap ?? 0}::bigint, ${o.onlyListed === true}::boolean, ${accountIds}::bigint[])`;
          }
          // All at once through the store, as 400 reports in flight would beat.
          await Promise.all(beats.map((b) => together.recordClientSeen(b.client, b.accountIds, b.history, b.o)));
          expect(await written(togetherSql)).toEqual(await written(oneSql));
          expect(together.beatWriter.stats).toEqual({ beats: 400, calls: 2 }); // the first alone, the rest behind it
        });
      });
    }
  }, 120_000);

  test("a beat that cannot be written fails its own caller; the others' beats are written", async () => {
    await onNewDatabase(cluster, "beat_fails", { max: 2 }, async (store, sql) => {
      await merchant(store);
      const acc = await account(store);
      const first = store.recordClientSeen(phone("first", T0), [acc.id], { gap: 60 });
      // A name PostgreSQL's text cannot hold (a NUL character), between two good beats, behind the first.
      const beats = ["good-1", "bad\u0000name", "good-2"].map((name) =>
        store.recordClientSeen(phone(name, T0 + 1), [acc.id], { gap: 60 }).then(() => "ok", () => "failed"),
      );
      await first;
      expect(await Promise.all(beats)).toEqual(["ok", "failed", "ok"]);
      const names = (await sql`SELECT name FROM clients ORDER BY name`).map((r: { name: string }) => r.name);
      expect(names).toEqual(["first", "good-1", "good-2"]);
      expect(Number((await sql`SELECT last_seen_at FROM channel_accounts WHERE id = ${acc.id}`)[0].last_seen_at)).toBe(T0 + 1);
      // The call that carried the three failed; each client's beats were then written alone.
      expect(store.beatWriter.stats).toEqual({ beats: 3, calls: 5 });
    });
  }, 60_000);
});

// Migration 034 on SQLite: the directory's version moves when, and only when, something the
// directory holds changes, and the store reads the accounts and keyed clients again only then.
// A create's round-robin stamp, a heartbeat's last_seen_at, a V免签 heartbeat or push, and a
// statement that sets `enabled` to the value it has leave it (and the kept answer) alone.
import { Database } from "bun:sqlite";
import { afterEach, beforeEach, expect, test } from "bun:test";
import { harness, type Harness, nativeCreate, postJson, seed } from "../helpers.ts";

let h: Harness;
let db: Database;
beforeEach(async () => {
  h = harness();
  await seed(h); // merchant 1001, its Alipay account 1
  db = new Database(h.dbPath, { readonly: true });
});
afterEach(() => {
  db.close();
  h.close();
});

const version = () => (db.query("SELECT v FROM directory_version").get() as { v: number }).v;

test("the stamps of creates, heartbeats and pushes neither move the version nor make the store read again", async () => {
  const s = h.gw.store;
  const r = await s.addKeyedClient({ kind: "vmq", pid: 1001, name: "vmq", key: "k-vmq", accountIds: [], now: h.clock.now() });
  if (r.kind !== "added") throw new Error(r.reason);
  const kept = await s.directory();
  const v = version();
  const { body } = await postJson(h, "/xpay/order/create", nativeCreate({ out_trade_no: "D1" }));
  expect(body.code).toBe(200); // moved account 1's use_seq
  await s.recordClientSeen({ kind: "phone", pid: 1001, name: "p", channelId: 1, extData: "", lastSeenAt: h.clock.now() }, [1]);
  await s.updateChannel(1, { enabled: true, lastSeenAt: h.clock.now() + 1 }); // enabled as it was
  expect(await s.acceptVmqHeart(r.client.id, Date.now(), h.clock.now())).toBe(true);
  await s.recordVmqPush(r.client.id, h.clock.now());
  expect(version()).toBe(v);
  expect(await s.directory()).toBe(kept); // the same answer: nothing was read again
});

test("every change of what it holds moves the version, and the next answer is read again", async () => {
  const s = h.gw.store;
  let v = version();
  let kept = await s.directory();
  const moved = async (what: string, change: () => Promise<unknown>) => {
    await change();
    const now = version();
    expect({ what, moved: now !== v }).toEqual({ what, moved: true });
    const next = await s.directory();
    expect({ what, readAgain: next !== kept }).toEqual({ what, readAgain: true });
    v = now;
    kept = next;
  };
  let id = 0;
  await moved("client added", async () => {
    const r = await s.addKeyedClient({ kind: "report", pid: 1001, name: "pixel", key: "k-report", accountIds: [], now: h.clock.now() });
    if (r.kind === "added") id = r.client.id;
  });
  await moved("client bound", () => s.bindKeyedClient(id, [1]));
  await moved("account disabled", () => s.updateChannel(1, { enabled: false }));
  let added = 0;
  await moved("account added", async () => (added = (await s.addChannel({ pid: 0, payType: "wxpay", code: "wx", name: "WeChat", qrcode: "wxp://x", now: h.clock.now() })).id));
  await moved("account renamed by another connection", async () => {
    const other = new Database(h.dbPath);
    other.query("UPDATE channel_accounts SET name = 'Renamed' WHERE id = $id").run({ id: added });
    other.close();
  });
  await moved("report groups", () => s.refreshReportGroups(() => new Map([[1, 1], [added, 1]])));
  await moved("account removed", () => s.removeChannel(added));
  await moved("client removed", () => s.removeKeyedClient(id));
  expect(version()).toBe(v);
});

test("every column of the accounts and keyed clients either moves the version or is a stamp the directory leaves out", async () => {
  // A later migration that adds a column the directory holds must add it to 034's triggers (a new
  // migration's own), or the kept answer would go stale when only that column changes.
  const { ACCOUNT_COLUMNS, CLIENT_COLUMNS } = await import("../../src/store/migrations/034_directory_version.ts");
  const columns = (t: string) => (db.query(`PRAGMA table_info(${t})`).all() as { name: string }[]).map((r) => r.name).filter((c) => c !== "id");
  expect(columns("channel_accounts").filter((c) => !ACCOUNT_COLUMNS.includes(c))).toEqual(["use_seq", "last_seen_at"]);
  expect(columns("keyed_clients").filter((c) => !CLIENT_COLUMNS.includes(c))).toEqual(["last_heart_t", "last_heart_at", "last_push_at"]);
  const directory = await h.gw.store.directory();
  // And the directory's own fields are exactly the rest (no stamp read from it).
  expect(Object.keys(directory.accounts[0]!).sort()).not.toContain("useSeq");
  expect(Object.keys(directory.accounts[0]!).sort()).not.toContain("lastSeenAt");
});

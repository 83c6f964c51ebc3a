// How a create on PostgreSQL locks receiving accounts (the create function of migration 026; the
// replay path of channels.ts alike): only the account it takes, passing over one another
// transaction holds, so creates of one pay type on several instances run side by side; and, when
// every usable account is held, it waits for them instead of
// failing or reading amounts it has not locked. The other transaction here is a raw one holding an
// account's row, as a create on another instance does until it commits.
import { expect, test } from "bun:test";
import { SQL } from "bun";
import { PostgresStore } from "../../src/store/postgres/index.ts";
import { account, create, merchant, T0 } from "../store-contract/harness.ts";
import { clusterPerFile, withPostgres } from "./cluster.ts";

withPostgres(() => {
  const cluster = clusterPerFile();

  /** A store on a new database, and a transaction (on its own connection) holding account rows. */
  async function setup(name: string) {
    const url = await cluster().createDatabase(name);
    const store = PostgresStore.open(url, { max: 4 });
    await merchant(store);
    const other = new SQL(url, { max: 1 });
    return { store, other };
  }

  /** Holds the rows of `ids` locked until `release()` resolves, as another create's transaction does. */
  function hold(other: SQL, ids: number[]) {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const done = other.begin(async (tx) => {
      await tx`SELECT id FROM channel_accounts WHERE id IN ${tx(ids)} FOR UPDATE`;
      locked();
      await released;
      // what that create took on the held account
      if (ids.length === 1) await tx`INSERT INTO orders (trade_no, pid, out_trade_no, family, pay_type, name, amount, status, account_id, trade_amount, created_at, expire_time)
        VALUES ('held-1', 1001, 'HELD-1', 'native', 'alipay', 'x', 1000, 1, ${ids[0]}, 1000, ${T0}, ${T0 + 900})`;
    });
    return { isLocked, release, done };
  }

  test("an account another create holds is passed over: the create takes the next one at once", async () => {
    const { store, other } = await setup("quick");
    const a = await account(store);
    const b = await account(store);
    const h = hold(other, [a.id]);
    await h.isLocked;
    const started = performance.now();
    const order = await create(store, { amount: 1000 });
    const ms = performance.now() - started;
    expect(order.accountId).toBe(b.id); // not waiting for a
    expect(ms).toBeLessThan(2000);
    h.release();
    await h.done;
    await store.end();
    await other.close();
  }, 30_000);

  test("when every usable account is held, the create waits for it and then reads what the holder took", async () => {
    const { store, other } = await setup("waiting");
    const a = await account(store);
    const h = hold(other, [a.id]);
    await h.isLocked;
    const pending = create(store, { amount: 1000 });
    let settled = false;
    void pending.then(() => (settled = true));
    await Bun.sleep(300);
    expect(settled).toBe(false); // waiting, not failing and not reading unlocked amounts
    h.release();
    await h.done;
    const order = await pending;
    expect(order.status).toBe(1);
    expect(order.accountId).toBe(a.id);
    expect(order.tradeAmount).toBe(999); // 10.00 was taken by the holder; the next one down
    await store.end();
    await other.close();
  }, 30_000);

  test("a full account locked on the way, the other busy: the create waits for the busy one instead of failing", async () => {
    const { store, other } = await setup("restart");
    const full = await account(store);
    for (let i = 0; i < 3; i++) expect((await create(store, { amount: 1000 }, { policy: { maxOffset: 2 } })).accountId).toBe(full.id);
    const busy = await account(store);
    const h = hold(other, [busy.id]);
    await h.isLocked;
    const pending = create(store, { amount: 1000 }, { policy: { maxOffset: 2 } });
    let settled = false;
    void pending.then(() => (settled = true));
    await Bun.sleep(300);
    expect(settled).toBe(false); // not "no free payable amount": busy is not full
    h.release();
    await h.done;
    const order = await pending;
    expect(order).toMatchObject({ status: 1, accountId: busy.id, tradeAmount: 999 }); // 10.00 taken by the holder
    await store.end();
    await other.close();
  }, 30_000);

  test("many creates of one pay type at once spread over the accounts, each amount held once", async () => {
    const { store, other } = await setup("spread");
    const ids = [(await account(store)).id, (await account(store)).id, (await account(store)).id];
    const made = await Promise.all(Array.from({ length: 30 }, () => create(store, { amount: 1000 }, { policy: { maxOffset: 20 } })));
    expect(made.every((o) => o.status === 1)).toBe(true);
    expect(new Set(made.map((o) => `${o.accountId}/${o.tradeAmount}`)).size).toBe(30);
    for (const id of ids) expect(made.some((o) => o.accountId === id)).toBe(true);
    await store.end();
    await other.close();
  }, 30_000);
});

// PostgreSQL's create function (migration 026, src/store/postgres/create.ts) runs the core's
// allocation rule from the data the rule carries, in one call. Here it must decide exactly as the
// rule itself does through the replayed view (the rule with its data taken away), create by create,
// on random accounts (limits, sort, report groups, disabled, offline, pinned) and random orders
// holding amounts (every status, inside and outside the match window); the order it returns must
// equal the stored row; and the expiry sweep must time out a backlog in batches.
import { expect, test } from "bun:test";
import { SQL } from "bun";
import { type AllocationPolicy, type AllocationRule } from "../../src/core/allocation.ts";
import { pinnedRule } from "../../src/core/create-order.ts";
import type { CreateOrderUnit } from "../../src/core/store.ts";
import { PostgresStore } from "../../src/store/postgres/index.ts";
import { expireOrders } from "../../src/store/postgres/orders.ts";
import { account, createUnit, DAY0, merchant, newOrder, T0 } from "../store-contract/harness.ts";
import { clusterPerFile, withPostgres } from "./cluster.ts";

/** A small deterministic generator: a failing seed can be run again. */
function random(seed: number) {
  let s = seed >>> 0;
  const next = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  return { int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)), pick: <T>(xs: T[]) => xs[Math.floor(next() * xs.length)]!, chance: (p: number) => next() < p };
}

type Rand = ReturnType<typeof random>;

/** The same rule without its data: the store can only run it through the view (the replay path). */
const viewOnly = (rule: AllocationRule): AllocationRule => (view) => rule(view);

withPostgres(() => {
  const cluster = clusterPerFile();

  /** One database laid out from `seed`: accounts, groups, held amounts. The same seed, the same rows. */
  async function scenario(seed: number, name: string) {
    const r = random(seed);
    const url = await cluster().createDatabase(name);
    const store = PostgresStore.open(url, { max: 2 });
    const sql = new SQL(url, { max: 1 });
    await merchant(store);
    await store.addMerchant({ pid: 1002, name: "Other", secret: "secret-1002", now: T0 });
    const ids: number[] = [];
    for (let i = 0, n = r.int(1, 6); i < n; i++) {
      const a = await account(store, {
        pid: r.pick([0, 1001, 1001, 1002]), payType: r.pick(["alipay", "alipay", "wxpay"]), sort: r.int(0, 2),
        min: r.chance(0.2) ? r.int(500, 1500) : 0, max: r.chance(0.2) ? r.int(900, 3000) : 0, day: r.chance(0.4) ? r.pick([1000, 1995, 2000, 2005, 3000, 5000]) : 0,
      });
      ids.push(a.id);
      await sql`UPDATE channel_accounts SET enabled = ${r.chance(0.85) ? 1 : 0}, last_seen_at = ${T0 - r.int(0, 200)},
        report_group = ${r.chance(0.4) ? ids[r.int(0, ids.length - 1)]! : 0} WHERE id = ${a.id}`;
    }
    // a group is named by its first member: give that member the group too
    await sql`UPDATE channel_accounts SET report_group = id WHERE id IN (SELECT report_group FROM channel_accounts WHERE report_group > 0)`;
    for (let i = 0, n = r.int(0, 24); i < n; i++) {
      const status = r.pick([1, 1, 1, 2, 3, 4, 5]);
      const at = T0 - r.int(0, 1200);
      await sql`INSERT INTO orders (trade_no, pid, out_trade_no, family, pay_type, name, amount, status, account_id, trade_amount, created_at, expire_time, paid_at, closed_at)
        VALUES (${`S${seed}x${i}`}, 1001, ${`S${i}`}, 'native', 'alipay', 'x', 1000, ${status}, ${status === 5 ? null : r.pick(ids)}, ${status === 5 ? null : r.int(990, 1010)},
                ${at - 900}, ${status === 1 ? at + 900 : at}, ${status === 2 ? at : null}, ${status === 3 ? at : null})`;
    }
    return { store, sql, ids };
  }

  function units(seed: number, ids: number[]): { unit: CreateOrderUnit; pinned: number | null }[] {
    const r = random(seed * 7 + 1);
    const policy: Partial<AllocationPolicy> = {
      maxOffset: r.int(0, 24), maxOffsetPercent: r.pick([1, 5, 100]), direction: r.pick(["down", "up"] as const), matchWindow: r.pick([0, 300, 600]),
      requireOnline: r.chance(0.2), heartbeatTimeout: 90,
    };
    return Array.from({ length: 25 }, (_, i) => {
      const order = newOrder({ pid: r.pick([1001, 1001, 1002]), payType: r.pick(["alipay", "alipay", "wxpay"]), amount: r.pick([995, 1000, 1000, 1005, 2000, r.int(1, 6000)]), outTradeNo: `N${i}` });
      const unit = createUnit(order, { policy });
      return { unit, pinned: r.chance(0.15) ? r.pick(ids) : null };
    });
  }

  for (let seed = 1; seed <= 20; seed++) {
    test(`seed ${seed}: the create function allocates as the rule does through the view`, async () => {
      const fn = await scenario(seed, `fn${seed}`);
      const view = await scenario(seed, `view${seed}`);
      try {
        const a = units(seed, fn.ids);
        const b = units(seed, view.ids);
        for (let i = 0; i < a.length; i++) {
          const ua = a[i]!.unit;
          const ub = b[i]!.unit;
          if (a[i]!.pinned !== null) {
            ua.allocate = pinnedRule(ua.allocate!, a[i]!.pinned!);
            ub.allocate = pinnedRule(ub.allocate!, b[i]!.pinned!);
          }
          expect(ua.allocate!.request).toBeDefined();
          ub.allocate = viewOnly(ub.allocate!);
          const [ra, rb] = [await fn.store.createOrder(ua), await view.store.createOrder(ub)];
          const summary = (x: typeof ra) => x.kind === "error" ? x : { kind: x.kind, status: x.order.status, account: x.order.accountId, ta: x.order.tradeAmount, reason: x.order.failReason, useSeq: x.account?.useSeq ?? null };
          expect({ i, ...summary(ra) }).toEqual({ i, ...summary(rb) });
          if (ra.kind === "created") expect(ra.order).toEqual((await fn.store.getOrder(ra.order.tradeNo))!);
        }
        const stamps = (sql: SQL) => sql`SELECT id, use_seq FROM channel_accounts ORDER BY id`;
        expect(await stamps(fn.sql)).toEqual(await stamps(view.sql));
      } finally {
        for (const s of [fn, view]) {
          await s.store.end();
          await s.sql.close();
        }
      }
    }, 60_000);
  }

  test("a failed create retried on its row, and a repeated one returned, in one call each", async () => {
    const url = await cluster().createDatabase("retry");
    const store = PostgresStore.open(url, { max: 2 });
    try {
      await merchant(store);
      const o = newOrder({ outTradeNo: "R1" });
      const failed = await store.createOrder(createUnit(o));
      expect(failed).toMatchObject({ kind: "created", order: { status: 5, failReason: "no enabled account for pay type alipay" } });
      const a = await account(store);
      const retried = await store.createOrder(createUnit(o));
      expect(retried).toMatchObject({ kind: "created", order: { status: 1, accountId: a.id, tradeAmount: 1000 }, account: { id: a.id } });
      if (retried.kind !== "created" || failed.kind !== "created") return;
      expect(retried.order.tradeNo).toBe(failed.order.tradeNo);
      expect(retried.order).toEqual((await store.getOrder(retried.order.tradeNo))!);
      expect(await store.createOrder(createUnit(o))).toMatchObject({ kind: "existing", order: { tradeNo: retried.order.tradeNo }, account: { id: a.id } });
      expect(await store.createOrder(createUnit({ ...o, amount: 2000 }))).toMatchObject({ kind: "error" });
    } finally {
      await store.end();
    }
  });

  test("a range too dense to walk is remembered by the connection and looked up directly, with the same answers (042)", async () => {
    const url = await cluster().createDatabase("dense");
    const store = PostgresStore.open(url, { max: 1 });
    const sql = new SQL(url, { max: 1 });
    const other = new SQL(url, { max: 1 });
    try {
      await merchant(store);
      const a = await account(store);
      let n = 0;
      const order = (amount: number, status: number, at: number) => sql`INSERT INTO orders (trade_no, pid, out_trade_no, family, pay_type, name, amount, status, account_id, trade_amount, created_at, expire_time, paid_at)
        VALUES (${`D${++n}`}, 1001, ${`D${n}`}, 'native', 'alipay', 'x', 1000, ${status}, ${a.id}, ${amount}, ${at - 60}, ${status === 1 ? at + 900 : at}, ${status === 2 ? at : null})`;
      // A shop's one price: every amount of the first read (1000..1016) paid many times, long ago.
      for (let x = 1000; x <= 1016; x++) for (let k = 0; k < 9; k++) await order(x, 2, T0 - 86400 * 30);
      await order(1000, 1, T0); // held now
      await order(1001, 2, T0 - 10); // paid inside the match window: held
      const since = T0 - 600;
      const free = async (db: SQL, unpaidSince = since) =>
        Number((await db`SELECT xpay_free_amount(${[a.id]}::bigint[], 1000, 1, 16, 100, ${unpaidSince}) AS x`)[0].x);
      const marks = async (db: SQL) => (await db`SELECT current_setting('xpay.dense_ranges', true) AS m`)[0].m as string | null;
      const key = `,${a.id}:1000:1016,`;
      expect(await marks(sql)).toBeNull();
      expect(await free(sql)).toBe(1002);
      expect(await marks(other)).toBeNull();
      expect(await marks(sql)).toBe(`${Math.floor(since / 600)}|${key}`);
      // Looked up while marked: a new hold is seen, and the history leaving changes nothing.
      await order(1002, 1, T0);
      expect(await free(sql)).toBe(1003);
      await sql`DELETE FROM orders WHERE status = 2 AND paid_at < ${since}`;
      expect(await free(sql)).toBe(1003);
      // Another connection's marks are its own; it walks, finds the range sparse, and marks nothing.
      expect(await free(other)).toBe(1003);
      expect(await marks(other)).toBe(`${Math.floor(since / 600)}|`);
      // A new ten-minute period forgets the marks: the thinned range is walked again, not marked.
      expect(await free(sql, since + 600)).toBe(1001);
      expect(await marks(sql)).toBe(`${Math.floor(since / 600) + 1}|`);
      expect(await free(sql)).toBe(1003);
      expect(await marks(sql)).toBe(`${Math.floor(since / 600)}|`);
    } finally {
      await store.end();
      await sql.close();
      await other.close();
    }
  });

  test("the expiry sweep times a backlog out in batches, and counts each order once", async () => {
    const url = await cluster().createDatabase("sweep");
    const sql = new SQL(url, { max: 2 });
    const store = PostgresStore.open(url, { max: 2 });
    try {
      await merchant(store);
      await sql`INSERT INTO orders (trade_no, pid, out_trade_no, family, pay_type, name, amount, status, created_at, expire_time)
        SELECT 'E' || i, 1001, 'E' || i, 'native', CASE WHEN i % 2 = 0 THEN 'alipay' ELSE 'wxpay' END, 'x', 100, 1, ${T0}, ${T0 + 900} FROM generate_series(1, 25) i`;
      const tally: string[] = [];
      expect(await expireOrders(sql, T0 + 900, (f, p, n) => tally.push(`${f}/${p}/${n}`), 4)).toBe(25);
      expect(tally.sort()).toEqual(["native/alipay/12", "native/wxpay/13"]);
      expect(Number((await sql`SELECT count(*) AS n FROM orders WHERE status = 4`)[0].n)).toBe(25);
      expect(await expireOrders(sql, T0 + 900, undefined, 4)).toBe(0);
      expect(DAY0).toBeLessThan(T0);
    } finally {
      await store.end();
      await sql.close();
    }
  });
});

// Concurrency: requests in flight at once through the app (one process, one SQLite file), then the
// rows themselves are checked: unique payable amounts, one payment per order, cancel xor pay.
import { Database } from "bun:sqlite";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { type Harness, harness, nativeCreate, PUBLIC_TRADE_NO, seed, signed } from "../helpers.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
});
afterEach(() => h.close());

const post = (path: string, body: Record<string, string>) =>
  h.app.handle(new Request(`http://localhost${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).then((r) => r.json() as Promise<any>);

const amountReport = (amount: number, extra: Record<string, string> = {}) =>
  post("/api/report/1001/pc", signed({ timestamp: h.clock.now(), amount, pay_type: "alipay", channel_code: "alipay_qr", ...extra }));

function rows<T>(sql: string, ...args: (string | number)[]): T[] {
  const db = new Database(h.dbPath, { readonly: true });
  try {
    return db.query(sql).all(...args) as T[];
  } finally {
    db.close();
  }
}

describe("concurrency", () => {
  test("100 concurrent equal-amount creates on one account never share a pending trade_amount", async () => {
    await h.gw.store.setSetting("max_offset", "200");
    h.gw.forgetSettings();
    const t0 = performance.now();
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => post("/xpay/order/create", nativeCreate({ money: "10.00", out_trade_no: `C${i}` }))));
    const ms = performance.now() - t0;
    expect(answers.filter((a) => a.code === 200).length).toBe(100);
    const amounts = answers.map((a) => a.data.trade_amount as string);
    expect(new Set(amounts).size).toBe(100);
    const pending = rows<{ trade_amount: number; n: number }>("SELECT trade_amount, COUNT(*) AS n FROM orders WHERE status = 1 GROUP BY account_id, trade_amount HAVING n > 1");
    expect(pending).toEqual([]);
    expect(rows<{ n: number }>("SELECT COUNT(*) AS n FROM orders WHERE status = 1")[0]!.n).toBe(100);
    console.log(`[reliability] 100 concurrent creates: 100 distinct trade_amounts in ${ms.toFixed(0)} ms`);
  });

  test("with the default max_offset the overflow fails (status 5) instead of sharing an amount", async () => {
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => post("/xpay/order/create", nativeCreate({ money: "10.00", out_trade_no: `D${i}` }))));
    const okCount = answers.filter((a) => a.code === 200).length;
    expect(okCount).toBe(11); // 10.00 down to 9.90: max_offset 10 => 11 slots
    expect(rows<{ n: number }>("SELECT COUNT(*) AS n FROM orders WHERE status = 5")[0]!.n).toBe(89);
    expect(rows("SELECT trade_amount FROM orders WHERE status = 1 GROUP BY trade_amount HAVING COUNT(*) > 1")).toEqual([]);
  });

  test("20 concurrent identical reports pay the order once", async () => {
    const created = await post("/xpay/order/create", nativeCreate({ money: "10.00", notify_url: "http://127.0.0.1:9/n" }));
    const report = signed({ timestamp: h.clock.now(), amount: Math.round(Number(created.data.trade_amount) * 100), pay_type: "alipay", channel_code: "alipay_qr" });
    const answers = await Promise.all(Array.from({ length: 20 }, () => post("/api/report/1001/pc", report)));
    const outcomes = answers.map((a) => a.data.outcome as string);
    expect(outcomes.filter((o) => o === "matched").length).toBe(1);
    expect(outcomes.filter((o) => o !== "matched" && o !== "duplicate")).toEqual([]);
    expect(rows<{ status: number }>(`SELECT status FROM orders WHERE ${PUBLIC_TRADE_NO} = ?`, created.data.trade_no)[0]!.status).toBe(2);
    expect(rows<{ n: number }>(`SELECT COUNT(*) AS n FROM notifications WHERE ${PUBLIC_TRADE_NO} = ?`, created.data.trade_no)[0]!.n).toBe(1);
    expect(rows<{ n: number }>("SELECT COUNT(*) AS n FROM reports WHERE outcome = 'matched'")[0]!.n).toBe(1);
  });

  test("cancel racing pay ends in exactly one of the two states (60 rounds)", async () => {
    await h.gw.store.setSetting("max_offset", "200"); // closed orders keep their amount reserved for match_window
    h.gw.forgetSettings();
    const tally = { paid: 0, closed: 0 };
    for (let i = 0; i < 60; i++) {
      const c = await post("/xpay/order/create", nativeCreate({ money: "10.00", out_trade_no: `R${i}`, notify_url: "http://127.0.0.1:9/n" }));
      expect(c.code).toBe(200);
      const cents = Math.round(Number(c.data.trade_amount) * 100);
      const cancel = () => post("/xpay/order/cancel", signed({ pid: 1001, out_order_id: `R${i}`, timestamp: h.clock.now() }));
      const pay = () => amountReport(cents, { remark: `round-${i}` });
      // Alternate which side starts first and stagger the other by 0-15 microtask turns, so the two
      // handlers interleave at different await points (not just "first come, first served").
      const later = async <T>(f: () => Promise<T>) => {
        for (let k = Math.floor(Math.random() * 16); k > 0; k--) await null;
        return f();
      };
      const [a, b] = i % 2 ? await Promise.all([cancel(), later(pay)]) : await Promise.all([later(cancel), pay()]);
      const cancelled = a.code === 200;
      const paid = b.data?.outcome === "matched";
      expect(cancelled !== paid).toBe(true); // exactly one side won
      const row = rows<{ status: number; paid_at: number | null; closed_at: number | null }>(`SELECT status, paid_at, closed_at FROM orders WHERE ${PUBLIC_TRADE_NO} = ?`, c.data.trade_no)[0]!;
      const notes = rows<{ n: number }>(`SELECT COUNT(*) AS n FROM notifications WHERE ${PUBLIC_TRADE_NO} = ?`, c.data.trade_no)[0]!.n;
      if (paid) {
        expect(row.status).toBe(2);
        expect(row.closed_at).toBeNull();
        expect(notes).toBe(1);
        tally.paid++;
      } else {
        expect(row.status).toBe(3);
        expect(row.paid_at).toBeNull();
        expect(notes).toBe(0);
        tally.closed++;
      }
    }
    expect(tally.paid).toBeGreaterThan(0);
    expect(tally.closed).toBeGreaterThan(0);
    console.log(`[reliability] cancel vs pay, 60 rounds: ${tally.paid} paid, ${tally.closed} closed, 0 both, 0 neither`);
  });
});

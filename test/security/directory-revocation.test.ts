// A phone's key stops paying the moment it is removed, wherever it is removed from. The report
// routes read who watches which account from the store's directory, which SQLite keeps between
// reports and reads again only when migration 034's version moved. `xpay client remove` runs in
// another process: here a second connection to the same file does what it does. Each assertion
// on the removed phone fails on a directory kept without the version (or with a version only this
// process moves): the phone's key would still verify.
import { Database } from "bun:sqlite";
import { afterEach, beforeEach, expect, test } from "bun:test";
import { harness, type Harness, seed } from "../helpers.ts";
import { createOrder, report } from "../report/util.ts";

const PHONE_KEY = "phone-key-0123456789abcdef-rev";
const NEW_KEY = "phone-key-0123456789abcdef-new";
let h: Harness;
let other: Database;
beforeEach(async () => {
  h = harness();
  await seed(h);
  const added = await h.gw.store.addKeyedClient({ kind: "report", pid: 1001, name: "pixel", key: PHONE_KEY, accountIds: [], now: h.clock.now() });
  expect(added.kind).toBe("added");
  other = new Database(h.dbPath);
  other.exec("PRAGMA busy_timeout = 5000");
});
afterEach(() => {
  other.close();
  h.close();
});

const amountOf = (o: { trade_amount: string }) => Math.round(Number(o.trade_amount) * 100);
/** One amount report; the clock moves a second first, so a report sent again is not a duplicate of the last. */
function pay(o: { trade_amount: string }, key: string) {
  h.clock.advance(1);
  return report(h, "/1001/pc", { amount: amountOf(o), pay_type: "alipay", channel_code: "alipay_qr" }, { secret: key });
}

test("a phone removed by another process pays nothing from its next report on", async () => {
  const first = await createOrder(h, { out_trade_no: "R1" });
  expect((await pay(first, PHONE_KEY)).body.data).toMatchObject({ outcome: "matched", trade_no: first.trade_no }); // the directory is read and kept
  const second = await createOrder(h, { out_trade_no: "R2" });
  other.exec("DELETE FROM keyed_clients WHERE name = 'pixel'");
  const refused = await pay(second, PHONE_KEY);
  expect(refused.body.code).toBe(401);
  expect((await h.gw.store.getOrder(second.trade_no))!.status).toBe(1);
  expect((await h.gw.store.getOrder(first.trade_no))!.status).toBe(2);
});

test("a phone added or rebound by another process is seen by its first report", async () => {
  const order = await createOrder(h, { out_trade_no: "N1" });
  expect((await pay(order, NEW_KEY)).body.code).toBe(401); // unknown key; the directory is kept
  other.query("INSERT INTO keyed_clients (kind, pid, name, key, accounts, created_at) VALUES ('report', 1001, 'tablet', $key, '', 0)").run({ key: NEW_KEY });
  // Bound to an account that is not the order's: the new phone watches only that one.
  const elsewhere = (await h.gw.store.addChannel({ pid: 1001, payType: "alipay", code: "other_qr", name: "Other", qrcode: "https://qr.alipay.com/o", now: h.clock.now() })).id;
  other.query("UPDATE keyed_clients SET accounts = $a WHERE name = 'tablet'").run({ a: String(elsewhere) });
  const bound = await pay(order, NEW_KEY);
  expect(bound.body.code).toBe(200);
  expect(bound.body.data.outcome).toBe("unmatched"); // verified, but the order's account is not its own
  other.exec("UPDATE keyed_clients SET accounts = '' WHERE name = 'tablet'");
  expect((await pay(order, NEW_KEY)).body.data).toMatchObject({ outcome: "matched", trade_no: order.trade_no });
});

test("a V免签 phone removed or re-keyed by another process is refused from its next request on", async () => {
  const { appHeartUrl, appPushUrl, get, KEY, md5 } = await import("../vmq/clients.ts");
  const added = await h.gw.store.addKeyedClient({ kind: "vmq", pid: 1001, name: "vphone", key: KEY, accountIds: [], now: h.clock.now() });
  expect(added.kind).toBe("added");
  const t = () => String(h.clock.nowMs());
  expect((await get(h, appHeartUrl(t()))).body.code).toBe(1); // the directory is read and kept
  const state = await get(h, `http://localhost/getState?t=${t()}&sign=${md5(t() + KEY)}`);
  expect(state.body.data).toMatchObject({ lastheart: String(h.clock.now()), jkstate: "1" }); // the stamps, read for the signer
  const NEW = "5c6b4d3e2f1a0b9c8d7e6f5a4b3c2d1e";
  other.query("UPDATE keyed_clients SET key = $k WHERE name = 'vphone'").run({ k: NEW });
  h.clock.advance(1);
  const old = await get(h, appPushUrl(t(), 2, 10));
  expect(old.body.code).toBe(-1); // the old key no longer signs
  expect(await h.gw.store.listReports({ outcome: "unmatched" })).toHaveLength(0); // a push that verified would be stored so
  expect((await get(h, appHeartUrl(t(), NEW))).body.code).toBe(1); // the new one does, at once
  other.exec("DELETE FROM keyed_clients WHERE name = 'vphone'");
  h.clock.advance(1);
  expect((await get(h, appHeartUrl(t(), NEW))).body.code).toBe(-1);
  expect((await get(h, `http://localhost/getState?t=${t()}&sign=${md5(t() + NEW)}`)).body.code).toBe(-1);
});

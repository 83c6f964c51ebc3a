// Issue 30 item 4 end to end: two Alipay accounts of one merchant and one unbound SmsForwarder
// phone. Fifty orders of the same price, created at once over HTTP, get fifty payable amounts; the
// phone forwards each payment the app's way and each pays exactly its own order, whose signed
// notification reaches a real listener. Bound to a phone each, the accounts may hold the same
// amount, and each phone's notification pays the order on its own account.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { CLI_ACTOR } from "../../src/core/admin/audit.ts";
import { addClient } from "../../src/core/clients/keyed.ts";
import { changeSettings } from "../../src/core/settings-change.ts";
import { deliverDue } from "../../src/core/notify/deliver.ts";
import { md5Sign } from "../../src/protocols/signing.ts";
import type { KeyedClient } from "../../src/core/store.ts";
import { harness, type Harness, SECRET, seed } from "../helpers.ts";
import { createOrder } from "./util.ts";
import { ALIPAY, defaultAppContent, defaultFormBody } from "./smsforwarder-app.ts";

let h: Harness;
let second: number;
const received = new Map<string, Record<string, string>>();
let listener: ReturnType<typeof Bun.serve>;
beforeAll(() => {
  listener = Bun.serve({
    port: 0, hostname: "127.0.0.1",
    async fetch(req) {
      const p = Object.fromEntries(new URLSearchParams(await req.text()));
      received.set(p.trade_no!, p);
      return new Response("success");
    },
  });
});
afterAll(() => listener.stop(true));
beforeEach(async () => {
  h = harness();
  await seed(h); // account 1: the merchant's Alipay
  second = (await h.gw.store.addChannel({ pid: 1001, payType: "alipay", code: "alipay_b", name: "Alipay B", qrcode: "https://qr.alipay.com/b", now: h.clock.now() })).id;
  expect((await changeSettings(h.gw, CLI_ACTOR, { max_offset: "0.60" })).kind).toBe("saved");
  received.clear();
});
afterEach(() => h.close());

async function phone(name: string, accountIds: number[]): Promise<KeyedClient> {
  const r = await addClient(h.gw, CLI_ACTOR, { kind: "smsforwarder", pid: 1001, name, accountIds });
  if (!r.ok) throw new Error(r.reason);
  return r.client;
}

let seconds = 0;
async function forward(c: KeyedClient, yuan: string) {
  // Each payment is a new notification: its own receive time, its own send time.
  seconds++;
  h.clock.advance(1);
  const time = `2026-11-25 20:${String(Math.floor(seconds / 60) % 60).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`;
  const n = { pkg: ALIPAY, title: "支付宝通知", text: `你已成功收款${yuan}元`, time };
  const res = await h.app.handle(new Request(`http://localhost/api/report/smsforwarder/${c.id}`, {
    method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: defaultFormBody(n.pkg, defaultAppContent(n), h.clock.nowMs(), c.key),
  }));
  return (await res.json()) as { code: number; data: { outcome: string; trade_no: string } };
}

const notifyUrl = () => `http://127.0.0.1:${listener.port}/notify`;

describe("one unbound phone, two accounts", () => {
  test("50 concurrent creates of 10.00 get 50 payable amounts; each forwarded payment pays exactly its order and is notified", async () => {
    const forwarder = await phone("forwarder", []);
    const orders = await Promise.all(Array.from({ length: 50 }, () => createOrder(h, { money: "10.00", notify_url: notifyUrl() })));
    expect(new Set(orders.map((o) => o.trade_amount)).size).toBe(50);
    const accounts = new Set(await Promise.all(orders.map(async (o) => (await h.gw.store.getOrder(o.trade_no))!.accountId)));
    expect(accounts).toEqual(new Set([1, second]));
    for (const o of orders) {
      const r = await forward(forwarder, o.trade_amount);
      expect(r.data).toMatchObject({ outcome: "matched", trade_no: o.trade_no });
    }
    await deliverDue(h.gw);
    expect(received.size).toBe(50);
    for (const o of orders) {
      const { sign, ...fields } = received.get(o.trade_no)!;
      expect(sign).toBe(md5Sign(fields, SECRET, ["sign"]));
      expect(fields).toMatchObject({ trade_no: o.trade_no, status: "2", amount: "1000", trade_amount: String(Math.round(Number(o.trade_amount) * 100)) });
    }
  });
});

describe("each account bound to its own phone", () => {
  test("the same payable amount on both accounts; each phone's notification pays the order on its own account", async () => {
    const a = await phone("phone-a", [1]);
    const b = await phone("phone-b", [second]);
    const orders = await Promise.all(Array.from({ length: 4 }, () => createOrder(h, { money: "10.00", notify_url: notifyUrl() })));
    const placed = await Promise.all(orders.map(async (o) => (await h.gw.store.getOrder(o.trade_no))!));
    const onA = placed.find((o) => o.accountId === 1 && o.tradeAmount === 1000)!;
    const onB = placed.find((o) => o.accountId === second && o.tradeAmount === 1000)!;
    expect(onA && onB).toBeTruthy();
    expect((await forward(b, "10.00")).data).toMatchObject({ outcome: "matched", trade_no: onB.tradeNo });
    expect((await forward(a, "10.00")).data).toMatchObject({ outcome: "matched", trade_no: onA.tradeNo });
    await deliverDue(h.gw);
    expect(received.has(onA.tradeNo) && received.has(onB.tradeNo)).toBe(true);
  });
});

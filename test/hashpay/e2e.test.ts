// create -> simulate payment -> notification at a real listener (POST form), checked as the
// vendor demo checks it -> query shows OD.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { deliverDue } from "../../src/core/notify/deliver.ts";
import { returnUri } from "../../src/core/pay-order.ts";
import { settleOperatorPayment } from "../../src/core/settle-report.ts";
import { harness, type Harness, seed } from "../helpers.ts";
import { type Receiver, startReceiver } from "../notify/receiver.ts";
import { hashParams, hashPost, xhHash } from "./sdk.ts";

let h: Harness;
let rx: Receiver;
beforeEach(async () => {
  h = harness();
  await seed(h);
});
afterEach(() => {
  rx?.stop();
  h.close();
});

test("hash protocol end to end", async () => {
  rx = startReceiver(["fail", "成功"]);
  const made = await hashPost(h, "/xpay/hashpay", hashParams(h, { trade_order_id: 1763800001, total_fee: "0.1", payment: "alipay", plugins: "my-plugins-id", attach: "备注", notify_url: rx.url, return_url: "http://127.0.0.1/r" }));
  expect(made.errcode).toBe("0");
  expect((await settleOperatorPayment(h.gw, made.oderid))?.outcome).toBe("matched"); // what `xpay simulate-pay` runs

  await deliverDue(h.gw);
  await rx.waitFor(1);
  h.clock.advance(15);
  await deliverDue(h.gw);
  await rx.waitFor(2);
  for (const n of rx.received) {
    expect(n.method).toBe("POST");
    expect(n.contentType).toContain("application/x-www-form-urlencoded");
    expect(n.params.hash).toBe(xhHash(n.params)); // the demo's notify check over every field
    expect(n.params).toMatchObject({ trade_order_id: "1763800001", total_fee: "0.10", open_order_id: made.oderid, order_title: "耐克球鞋", status: "OD", plugins: "my-plugins-id", attach: "备注", appid: "1001" });
  }
  expect((await h.gw.store.getNotification(made.oderid))?.status).toBe("delivered");

  const { trade_order_id: _t, total_fee: _f, title: _ti, notify_url: _n, version: _v, payment: _p, ...q } = hashParams(h, { out_trade_order: "1763800001" });
  const query = await hashPost(h, "/xpay/hashpay/payment/query.html", { ...q, hash: xhHash(q) }, "form");
  expect(query).toMatchObject({ errcode: "0", data: { status: "OD", open_order_id: made.oderid } });

  const back = new URL((await returnUri(h.gw, (await h.gw.store.getOrder(made.oderid))!))!);
  const fields = Object.fromEntries(back.searchParams);
  expect(fields.hash).toBe(xhHash(fields));
});

// create -> simulate payment -> notification at a real listener, checked as the V1 SDK checks it
// -> api.php shows paid; and the return redirect carries the same signed fields.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { deliverDue } from "../../src/core/notify/deliver.ts";
import { returnUri } from "../../src/core/pay-order.ts";
import { settleOperatorPayment } from "../../src/core/settle-report.ts";
import { harness, type Harness, SECRET, seed } from "../helpers.ts";
import { type Receiver, startReceiver } from "../notify/receiver.ts";
import { call, sdkSign, v1Params } from "./sdk.ts";

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

test("epay V1 end to end", async () => {
  rx = startReceiver(["fail", "success"]);
  const made = (await (await call(h, "POST", "/xpay/epay/mapi.php", v1Params({ out_trade_no: "E2E-1", name: "商品 A+B", money: "12.30", param: "uid=7&x", notify_url: rx.url }))).json()) as any;
  expect(made.code).toBe(1);
  expect((await settleOperatorPayment(h.gw, made.trade_no, { apiTradeNo: "ALI-9" }))?.outcome).toBe("matched"); // what `xpay simulate-pay` runs

  await deliverDue(h.gw);
  await rx.waitFor(1);
  h.clock.advance(15); // "fail" is not an acknowledgement: the retry goes out after 15 s
  await deliverDue(h.gw);
  await rx.waitFor(2);
  for (const n of rx.received) {
    expect(n.method).toBe("GET");
    // The SDK's verifyNotify(): every parameter of the query, sign_type left out.
    expect(n.params.sign).toBe(sdkSign(n.params));
    expect(n.params).toMatchObject({ pid: "1001", trade_no: made.trade_no, out_trade_no: "E2E-1", type: "alipay", name: "商品 A+B", money: "12.30", trade_status: "TRADE_SUCCESS", param: "uid=7&x", sign_type: "MD5" });
  }
  expect((await h.gw.store.getNotification(made.trade_no))?.status).toBe("delivered");

  const q = (await (await call(h, "GET", "/xpay/epay/api.php", { act: "order", pid: "1001", key: SECRET, out_trade_no: "E2E-1" })).json()) as any;
  expect(q).toMatchObject({ code: 1, trade_no: made.trade_no, status: 2, api_trade_no: "ALI-9" });

  // The SDK's verifyReturn() signs every parameter of the return page's query.
  const back = new URL((await returnUri(h.gw, (await h.gw.store.getOrder(made.trade_no))!))!);
  expect(back.origin + back.pathname).toBe("http://127.0.0.1/r");
  const fields = Object.fromEntries(back.searchParams);
  expect(fields).toMatchObject({ trade_no: made.trade_no, trade_status: "TRADE_SUCCESS", sign_type: "MD5" });
  expect(fields.sign).toBe(sdkSign(fields));
});

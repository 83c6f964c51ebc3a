// create -> simulate payment -> notification at a real listener, checked as the V2 SDK checks it
// (platform key, timestamp within 300 s, every attempt signed afresh) -> query shows paid.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { deliverDue } from "../../src/core/notify/deliver.ts";
import { returnUri } from "../../src/core/pay-order.ts";
import { settleOperatorPayment } from "../../src/core/settle-report.ts";
import { harness, type Harness, seed } from "../helpers.ts";
import { type Receiver, startReceiver } from "../notify/receiver.ts";
import { newMerchantKeys, platformPublicBase64, post, sdkVerify, v2Params } from "./sdk.ts";

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

test("epay V2 end to end", async () => {
  rx = startReceiver(["fail", "success"]);
  const keys = newMerchantKeys();
  await h.gw.store.updateMerchant(1001, { rsaPublicKey: keys.merchantPublic });
  const platform = await platformPublicBase64(h);
  const made = (await (await post(h, "create", v2Params(h, keys, { out_trade_no: "E2E-2", name: "测试 商品+&x", money: "1.50", notify_url: rx.url }))).json()) as any;
  expect(made.code).toBe(0);
  expect((await settleOperatorPayment(h.gw, made.trade_no, { apiTradeNo: "WX-1", buyer: "o_abc" }))?.outcome).toBe("matched"); // what `xpay simulate-pay` runs

  await deliverDue(h.gw);
  await rx.waitFor(1);
  const firstAt = h.clock.now();
  h.clock.advance(400); // past the SDK's 300 s window of the first attempt
  await deliverDue(h.gw);
  await rx.waitFor(2);
  const [first, second] = rx.received;
  expect(first!.method).toBe("GET");
  expect(sdkVerify(first!.params, platform, firstAt)).toBe(true);
  expect(sdkVerify(second!.params, platform, h.clock.now())).toBe(true);
  expect(second!.params.timestamp).not.toBe(first!.params.timestamp);
  expect(second!.params).toMatchObject({ pid: "1001", trade_no: made.trade_no, out_trade_no: "E2E-2", type: "alipay", trade_status: "TRADE_SUCCESS", name: "测试 商品+&x", money: "1.50", api_trade_no: "WX-1", buyer: "o_abc", sign_type: "RSA" });
  expect((await h.gw.store.getNotification(made.trade_no))?.status).toBe("delivered");

  const none = { type: "", notify_url: "", return_url: "", name: "", money: "" };
  const q = (await (await post(h, "query", v2Params(h, keys, { ...none, trade_no: made.trade_no, out_trade_no: "" }))).json()) as any;
  expect(sdkVerify(q, platform, h.clock.now())).toBe(true);
  expect(q).toMatchObject({ code: 0, status: 2, trade_no: made.trade_no });

  const back = new URL((await returnUri(h.gw, (await h.gw.store.getOrder(made.trade_no))!))!);
  expect(sdkVerify(Object.fromEntries(back.searchParams), platform, h.clock.now())).toBe(true);
});

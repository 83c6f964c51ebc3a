// The gateway side of the panel tests: a gateway with an Alipay and a WeChat account, and the steps
// a payer and the operator take (follow the panel's link, pick on the cashier, pay, deliver).
import { expect } from "bun:test";
import { deliverDue } from "../../src/core/notify/deliver.ts";
import { settleOperatorPayment } from "../../src/core/settle-report.ts";
import { BASE, harness, type Harness, SECRET, seed } from "../helpers.ts";

/** What the operator tells the panel: the V1 base, without the trailing file name. */
export const EPAY_URL = `${BASE}/xpay/epay`;

export async function panelGateway(): Promise<Harness> {
  const h = harness();
  await seed(h);
  await h.gw.store.addChannel({ pid: 0, payType: "wxpay", code: "wx_qr", name: "WeChat A", qrcode: "wxp://f2f0abc", now: h.clock.now() });
  return h;
}

/** The payer's browser following a link (or an auto-submitted GET form): the cashier's trade_no. */
export async function follow(h: Harness, link: string): Promise<string> {
  const res = await h.app.handle(new Request(link));
  if (res.status !== 302) throw new Error(`expected a redirect to the cashier, got ${res.status}: ${await res.text()}`);
  const location = res.headers.get("location")!;
  expect(location).toStartWith(`${BASE}/pay/`);
  return location.slice(`${BASE}/pay/`.length);
}

/** The cashier page's calls: /api/order/* with a JSON body. */
export async function cashier(h: Harness, name: string, body: Record<string, string>) {
  const res = await h.app.handle(new Request(`${BASE}/api/order/${name}?_time=${Date.now()}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
  return { status: res.status, body: (await res.json()) as any };
}

/** api.php act=order, as the panels' query helpers call it (GET with key in the query). */
export async function apiOrder(h: Harness, outTradeNo: string) {
  const q = new URLSearchParams({ act: "order", pid: "1001", key: SECRET, out_trade_no: outTradeNo });
  return (await (await h.app.handle(new Request(`${EPAY_URL}/api.php?${q}`))).json()) as any;
}

/** What `xpay simulate-pay` runs, then one delivery pass of the outbox. */
export async function payAndDeliver(h: Harness, tradeNo: string): Promise<void> {
  expect((await settleOperatorPayment(h.gw, tradeNo))?.outcome).toBe("matched");
  await deliverDue(h.gw);
}

// Shared by the report and notify tests: a signed report like a phone client sends, and a native
// order to pay.
import { expect } from "bun:test";
import { type Harness, nativeCreate, postJson, SECRET, signed } from "../helpers.ts";

export async function createOrder(h: Harness, o: Record<string, string> = {}) {
  const { body } = await postJson(h, "/xpay/order/create", nativeCreate({ money: "10.00", ...o }));
  expect(body.code).toBe(200);
  return body.data as { trade_no: string; out_trade_no: string; trade_amount: string };
}

export async function report(h: Harness, path: string, params: Record<string, string | number>, o: { method?: "GET" | "POST"; secret?: string; timestamp?: number | string } = {}) {
  const all = signed({ timestamp: o.timestamp ?? h.clock.now(), ...params }, o.secret ?? SECRET);
  const method = o.method ?? "POST";
  const url = `http://localhost/api/report${path}`;
  const req =
    method === "GET"
      ? new Request(`${url}?${new URLSearchParams(all)}`)
      : new Request(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(all) });
  const res = await h.app.handle(req);
  return { status: res.status, body: (await res.json()) as { code: number; message: string; data: any } };
}

export const amountReport = (h: Harness, amount: number, extra: Record<string, string | number> = {}, o: { method?: "GET" | "POST" } = {}) =>
  report(h, "/1001/pc", { amount, pay_type: "alipay", channel_code: "alipay_qr", ...extra }, o);

export function smsContent(title: string, msg: string, pkg = "com.eg.android.AlipayGphone") {
  return JSON.stringify({ from: pkg, package_name: pkg, app_name: "支付宝", title, msg, receive_time: "2026-11-22 13:14:15", device_name: "Redmi-9" });
}

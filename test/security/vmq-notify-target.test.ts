// Only the merchant chooses where notifications go (issue 27 item 5). dujiaoka answers the payer with
// a redirect to its V免签 createOrder link, whose sign does not cover notifyUrl or returnUrl: a buyer
// rewrote notifyUrl to an internal address and xpay delivered there. Now a caller's URL is used
// only when it is the merchant's configured one or on a listed host (and then not private), and
// with notify_block_private on every family's create refuses `LOCALHOST.` and public names that
// resolve to loopback or private addresses (the gateway's resolver, injected here: no outside DNS).
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { LogFields } from "../../src/core/log.ts";
import { deliverDue } from "../../src/core/notify/deliver.ts";
import type { Lookup } from "../../src/core/notify/target.ts";
import { settleOperatorPayment } from "../../src/core/settle-report.ts";
import { type Harness, harness, nativeCreate, postJson } from "../helpers.ts";
import { type Receiver, startReceiver } from "../notify/receiver.ts";
import { dujiaokaCreateUrl, get, seedVmq, vmqUrls } from "../vmq/clients.ts";

let h: Harness;
let shop: Receiver;
let internal: Receiver;
let events: { name: string; fields?: LogFields }[];
beforeEach(async () => {
  h = harness();
  await seedVmq(h);
  shop = startReceiver(["success"]); // the shop's notify handler
  internal = startReceiver(["success"]); // a service on the gateway's network
  events = [];
  h.gw.log = { event: (name, fields) => events.push({ name, fields }), error: () => {} };
});
afterEach(() => {
  shop.stop();
  internal.stop();
  h.close();
});

/** dujiaoka's link with the shop's URLs, then as the buyer rewrote it in the browser's address bar. */
function rewritten(orderSn: string, o: { notifyUrl?: string; returnUrl?: string }): string {
  const url = new URL(dujiaokaCreateUrl("http://localhost/", { orderSn, actualPrice: 10, type: 2, notifyUrl: shop.url }));
  if (o.notifyUrl !== undefined) url.searchParams.set("notifyUrl", o.notifyUrl);
  if (o.returnUrl !== undefined) url.searchParams.set("returnUrl", o.returnUrl);
  return url.toString();
}

async function created(link: string) {
  const r = await get(h, link);
  expect(r.status).toBe(302);
  const tradeNo = r.res.headers.get("location")!.slice(-20);
  return (await h.gw.store.getOrder(tradeNo))!;
}

describe("V免签 createOrder: the link's notifyUrl and returnUrl", () => {
  test("a notifyUrl rewritten to an internal address: the notification goes to the configured shop URL, never there", async () => {
    await vmqUrls(h, { notifyUrl: shop.url });
    const order = await created(rewritten("DJK-1", { notifyUrl: `${internal.url.replace("/notify", "")}/admin/delete-all` }));
    expect(order.notifyUrl).toBe(shop.url);
    await settleOperatorPayment(h.gw, order.tradeNo);
    await deliverDue(h.gw);
    await shop.waitFor(1);
    expect(internal.received).toEqual([]);
    expect(events.find((e) => e.name === "vmq.url_refused")?.fields).toEqual({ pid: 1001, field: "notifyUrl", host: new URL(internal.url).host, used: "configured" });
  });

  test("nothing configured: a notifyUrl from the link is refused with what the operator must set; no order", async () => {
    await vmqUrls(h, { hosts: "" });
    const r = await get(h, rewritten("DJK-2", { notifyUrl: internal.url }));
    expect(r.body).toEqual({ code: -1, msg: expect.stringContaining("参数错误：notifyUrl is not this merchant's notification address: the operator sets it with xpay merchant set 1001 --setting vmq_notify_url="), data: null });
    expect(await h.gw.store.getOrderByOutTradeNo(1001, new URL(rewritten("x", {})).searchParams.get("payId")!)).toBeNull();
    expect((await h.gw.store.listOrders({ pid: 1001 })).length).toBe(0);
  });

  test("no notifyUrl in the link: the configured one (V免签's server default, per merchant)", async () => {
    await vmqUrls(h, { notifyUrl: shop.url });
    expect((await created(rewritten("DJK-3", { notifyUrl: "" }))).notifyUrl).toBe(shop.url);
  });

  test("returnUrl: on a listed host as sent (dujiaoka's carries its order number); elsewhere the configured one, or none", async () => {
    await vmqUrls(h, { notifyUrl: shop.url, returnUrl: "https://shop.test/orders" });
    expect((await created(rewritten("DJK-4", {}))).returnUrl).toBe("http://shop.test/pay/vpay/return_url?order_id=DJK-4");
    expect((await created(rewritten("DJK-5", { returnUrl: "https://evil.example/login" }))).returnUrl).toBe("https://shop.test/orders");
    await vmqUrls(h, { notifyUrl: shop.url });
    expect((await created(rewritten("DJK-6", { returnUrl: "https://evil.example/login" }))).returnUrl).toBe("");
  });

  test("a notifyUrl on a listed host is used as sent, unless it is or resolves to a private address", async () => {
    const answers: Record<string, string> = { "shop.example.com": "93.184.215.14", "127.0.0.1.nip.io": "127.0.0.1", "intra.example.com": "10.0.0.5" };
    const lookup: Lookup = async (host) => (answers[host] ? [{ address: answers[host]! }] : Promise.reject(new Error("ENOTFOUND")));
    h.gw.lookup = lookup;
    const port = new URL(internal.url).port;
    await vmqUrls(h, { notifyUrl: shop.url, hosts: `shop.example.com, 127.0.0.1.nip.io, intra.example.com, 127.0.0.1:${port}, localhost` });
    expect((await created(rewritten("H-1", { notifyUrl: "https://shop.example.com/pay/vpay/notify_url" }))).notifyUrl).toBe("https://shop.example.com/pay/vpay/notify_url");
    for (const [i, url] of [`http://127.0.0.1.nip.io:${port}/x`, "http://intra.example.com/x", internal.url, `http://LOCALHOST.:${port}/x`].entries()) {
      expect({ url, used: (await created(rewritten(`H-${i + 2}`, { notifyUrl: url }))).notifyUrl }).toEqual({ url, used: shop.url });
    }
  });
});

describe("with notify_block_private on, every family's create", () => {
  beforeEach(async () => {
    await h.gw.store.setSetting("notify_block_private", "1");
    h.gw.forgetSettings();
  });

  test("refuses LOCALHOST. (trailing dot, any case), which the literal check let through", async () => {
    for (const url of ["http://LOCALHOST./n", "http://localhost../n", "http://Api.LocalHost./n"]) {
      const r = await postJson(h, "/xpay/order/create", nativeCreate({ notify_url: url }));
      expect({ url, code: r.body.code, msg: r.body.msg }).toEqual({ url, code: 400, msg: expect.stringContaining("localhost") });
    }
  });

  test("refuses a public name that resolves to loopback or a private network, with what it resolved to", async () => {
    h.gw.lookup = async (host) => [{ address: host === "127.0.0.1.nip.io" ? "127.0.0.1" : host === "a.example" ? "192.168.1.20" : "93.184.215.14" }];
    for (const [url, address] of [["http://127.0.0.1.nip.io/n", "127.0.0.1"], ["https://a.example/n", "192.168.1.20"]] as const) {
      const r = await postJson(h, "/xpay/order/create", nativeCreate({ notify_url: url }));
      expect(r.body).toMatchObject({ code: 400, msg: expect.stringContaining(`resolves to ${address}`) });
    }
    expect((await postJson(h, "/xpay/order/create", nativeCreate({ notify_url: "https://merchant.example/n" }))).body.code).toBe(200);
  });

  test("a name that does not resolve is let through (delivery resolves again and refuses then)", async () => {
    h.gw.lookup = async () => Promise.reject(new Error("ENOTFOUND"));
    expect((await postJson(h, "/xpay/order/create", nativeCreate({ notify_url: "https://merchant.example/n" }))).body.code).toBe(200);
  });
});

test("the settings are checked on save, from the CLI's core path", async () => {
  const { updateMerchantOptions } = await import("../../src/core/merchant-admin.ts");
  const { CLI_ACTOR } = await import("../../src/core/admin/audit.ts");
  const bad = await updateMerchantOptions(h.gw, CLI_ACTOR, 1001, { settings: { vmq_url_hosts: "shop.example.com/path" } });
  expect(bad).toMatchObject({ kind: "refused", problems: [{ field: "setting:vmq_url_hosts", code: "setting_value" }] });
  const badUrl = await updateMerchantOptions(h.gw, CLI_ACTOR, 1001, { settings: { vmq_notify_url: "ftp://x/" } });
  expect(badUrl).toMatchObject({ kind: "refused", problems: [{ text: "--setting vmq_notify_url must be an http(s) URL of at most 1024 characters" }] });
  const ok = await updateMerchantOptions(h.gw, CLI_ACTOR, 1001, { settings: { vmq_notify_url: shop.url, vmq_url_hosts: "" } });
  expect(ok.kind === "saved" && ok.merchant.settings).toEqual({ vmq_notify_url: shop.url });
});

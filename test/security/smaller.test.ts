// Issue 14, item 12: HTML pages run no foreign code, hash notifications never reuse a nonce, a
// dead order is never handed back for its out_trade_no, and the CLI prints the served base URL.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { cancelOrder } from "../../src/core/cancel-order.ts";
import { deliverDue } from "../../src/core/notify/deliver.ts";
import { settleOperatorPayment } from "../../src/core/settle-report.ts";
import { harness, type Harness, nativeCreate, postJson, SECRET, seed, tempDir } from "../helpers.ts";
import { v1Params } from "../epay-v1/sdk.ts";
import { newMerchantKeys, post as v2Post, v2Params } from "../epay-v2/sdk.ts";
import { hashParams, hashPost, xhHash } from "../hashpay/sdk.ts";
import { type Receiver, startReceiver } from "../notify/receiver.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
});
afterEach(() => h.close());

test("every HTML error page carries a policy that runs no script", async () => {
  const pages = [
    await h.app.handle(new Request("http://localhost/xpay/epay/submit.php?pid=1001&sign=x")),
    await h.app.handle(new Request("http://localhost/xpay/epayn/api/pay/submit?pid=1001")),
    await h.app.handle(new Request("http://localhost/xpay/order/create-page", { method: "POST", body: new URLSearchParams({ pid: "1001" }) })),
    await h.app.handle(new Request("http://localhost/pay/20260101000000000000")),
  ];
  for (const res of pages) {
    expect(res.headers.get("content-type")).toContain("text/html");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain("script-src");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  }
});

test("hash notifications carry a fresh nonce_str at every attempt, each hash verifying", async () => {
  const rx: Receiver = startReceiver(["fail", "fail", "success"]);
  try {
    const made = await hashPost(h, "/xpay/hashpay", hashParams(h, { payment: "alipay", notify_url: rx.url }));
    expect((await settleOperatorPayment(h.gw, made.oderid))?.outcome).toBe("matched");
    for (let i = 0; i < 3; i++) {
      await deliverDue(h.gw);
      await rx.waitFor(i + 1);
      h.clock.advance(60);
    }
    const nonces = rx.received.map((n) => n.params.nonce_str);
    expect(new Set(nonces).size).toBe(3);
    for (const n of rx.received) expect(n.params.hash).toBe(xhHash(n.params));
  } finally {
    rx.stop();
  }
});

describe("creating again with the out_trade_no of a closed or timed-out order is a conflict in the family's shape", () => {
  async function deadOrders() {
    const keys = newMerchantKeys();
    await h.gw.store.updateMerchant(1001, { rsaPublicKey: keys.merchantPublic });
    const native = await postJson(h, "/xpay/order/create", nativeCreate({ out_trade_no: "DEAD-N" }));
    expect(await cancelOrder(h.gw, (await h.gw.store.getOrder(native.body.data.trade_no))!)).toMatchObject({ ok: true });
    return keys;
  }

  test("closed: native 409, V1 mapi -1, V2 -1 (signed), hash 409", async () => {
    const keys = await deadOrders();
    const again = await postJson(h, "/xpay/order/create", nativeCreate({ out_trade_no: "DEAD-N" }));
    expect(again.body).toMatchObject({ code: 409, data: null, msg: expect.stringContaining("was closed") });
    for (const [id, make] of [
      ["DEAD-V1", () => h.app.handle(new Request("http://localhost/xpay/epay/mapi.php", { method: "POST", body: new URLSearchParams(v1Params({ out_trade_no: "DEAD-V1" })) }))],
      ["DEAD-V2", () => v2Post(h, "create", v2Params(h, keys, { out_trade_no: "DEAD-V2" }))],
    ] as const) {
      const first = (await (await make()).json()) as any;
      await cancelOrder(h.gw, (await h.gw.store.getOrder(first.trade_no))!);
      const second = (await (await make()).json()) as any;
      expect(second).toMatchObject({ code: -1, msg: expect.stringContaining(`out_trade_no ${id} belongs to an order that was closed`) });
    }
    const hashFirst = await hashPost(h, "/xpay/hashpay", hashParams(h, { trade_order_id: "DEAD-H", payment: "alipay" }));
    await cancelOrder(h.gw, (await h.gw.store.getOrder(hashFirst.oderid))!);
    const hashAgain = await hashPost(h, "/xpay/hashpay", hashParams(h, { trade_order_id: "DEAD-H", payment: "alipay" }));
    expect(hashAgain).toMatchObject({ errcode: "409", errmsg: expect.stringContaining("was closed") });
  });

  test("timed out (read as status 4 before the sweep): a conflict; pending and paid ones are returned as before", async () => {
    const pending = await postJson(h, "/xpay/order/create", nativeCreate({ out_trade_no: "P1" }));
    expect((await postJson(h, "/xpay/order/create", nativeCreate({ out_trade_no: "P1" }))).body.data.trade_no).toBe(pending.body.data.trade_no);
    await settleOperatorPayment(h.gw, pending.body.data.trade_no);
    expect((await postJson(h, "/xpay/order/create", nativeCreate({ out_trade_no: "P1" }))).body.data.trade_no).toBe(pending.body.data.trade_no);
    await postJson(h, "/xpay/order/create", nativeCreate({ out_trade_no: "T1" }));
    h.clock.advance(901);
    expect((await postJson(h, "/xpay/order/create", nativeCreate({ out_trade_no: "T1" }))).body).toMatchObject({ code: 409, msg: expect.stringContaining("timed out") });
  });
});

test("order inspect prints the cashier link with the base URL the server was started with", async () => {
  const dir = tempDir("xpay-base-");
  const db = join(dir, "b.db");
  const env = { ...process.env, NO_COLOR: "1", XPAY_BASE_URL: undefined } as Record<string, string | undefined>;
  delete env.XPAY_BASE_URL;
  const run = (...args: string[]) => Bun.spawnSync([process.execPath, "src/cli/main.ts", "--db", db, ...args], { env: env as Record<string, string> });
  try {
    expect(run("migrate").exitCode).toBe(0);
    expect(run("merchant", "add", "--name", "S", "--pid", "1001", "--secret", SECRET).exitCode).toBe(0);
    expect(run("channel", "add", "--pid", "0", "--pay-type", "alipay", "--code", "a", "--name", "A", "--qrcode", "https://qr.alipay.com/q").exitCode).toBe(0);
    const serve = Bun.spawn([process.execPath, "src/cli/main.ts", "--db", db, "serve", "--port", "0", "--base-url", "https://pay.example.com/gw"], { env: env as Record<string, string>, stdout: "pipe", stderr: "pipe" });
    const reader = serve.stdout.getReader();
    let out = "";
    while (!out.includes("listening")) {
      const chunk = await reader.read();
      if (chunk.done) throw new Error(`serve stopped: ${out} ${await new Response(serve.stderr).text()}`);
      out += new TextDecoder().decode(chunk.value);
    }
    const port = /:(\d+)/.exec(out.slice(out.indexOf("http://")))![1];
    const created = await fetch(`http://127.0.0.1:${port}/xpay/order/create`, { method: "POST", body: new URLSearchParams(nativeCreate({ out_trade_no: "BASE1" })) });
    const tradeNo = ((await created.json()) as any).data.trade_no as string;
    serve.kill("SIGTERM");
    await serve.exited;
    const inspect = run("order", "inspect", tradeNo).stdout.toString();
    expect(inspect).toContain(`https://pay.example.com/gw/pay/${tradeNo}`);
    expect(inspect).not.toContain("127.0.0.1:8080");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// The operator's view, through the real CLI in a child process: simulate-pay --deliver,
// notify list/show/replay, report list, client list. Spawned asynchronously so this process's
// receiver can answer the child's notification.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { harness, type Harness, seed } from "../helpers.ts";
import { amountReport, createOrder, report } from "../report/util.ts";
import { type Receiver, startReceiver } from "./receiver.ts";

let h: Harness;
let rx: Receiver;
let tradeNo = "";
beforeAll(async () => {
  h = harness();
  rx = startReceiver(["success"]);
  await seed(h);
  tradeNo = (await createOrder(h, { notify_url: rx.url })).trade_no;
  await amountReport(h, 4242); // unmatched
  await report(h, "/1001/heart", { client_name: "phone-9" });
  h.gw.store.close(); // the CLI opens the file itself
});
afterAll(() => {
  rx.stop();
  h.close();
});

async function xpay(...args: string[]) {
  const p = Bun.spawn([process.execPath, "src/cli/main.ts", "--db", h.dbPath, ...args], { env: { ...process.env, NO_COLOR: "1" }, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, out, err };
}
const json = async (...args: string[]) => {
  const r = await xpay(...args, "--json");
  expect(r.err).toBe("");
  return JSON.parse(r.out);
};

describe("CLI: simulate-pay, notify, report, client", () => {
  test("simulate-pay --deliver pays and sends the notification in-process", async () => {
    const r = await json("simulate-pay", tradeNo, "--deliver");
    expect(r).toMatchObject({ trade_no: tradeNo, paid: true, outcome: "matched", notification: { status: "delivered", attempts: 1 } });
    expect(rx.received.length).toBe(1);
    const again = await xpay("simulate-pay", tradeNo);
    expect(again.code).toBe(1);
    expect(again.err).toContain("already paid");
  });

  test("notify list / show / replay", async () => {
    const list = await json("notify", "list", "--status", "delivered");
    expect(list.map((n: any) => n.trade_no)).toEqual([tradeNo]);
    const shown = await json("notify", "show", tradeNo);
    expect(shown.attempts).toMatchObject([{ n: 1, http: 200, ack: true, body: "success" }]);
    expect(shown.params.sign).toBeUndefined(); // signed at send time only
    const replay = await xpay("notify", "replay", tradeNo, "--deliver");
    expect(replay.code).toBe(0);
    expect(replay.out).toContain("notification delivered");
    expect(rx.received.length).toBe(2);
    expect((await xpay("notify", "show", "nope")).err).toContain("no notification for order nope");
  });

  test("report list and client list", async () => {
    const all = await json("report", "list");
    expect(all.map((r: any) => r.outcome)).toEqual(["unmatched", "matched", "accepted", "unmatched"]);
    const unmatched = await json("report", "list", "--outcome", "unmatched", "--pid", "1001");
    expect(unmatched.length).toBe(2);
    expect((await xpay("report", "list", "--outcome", "bogus")).err).toContain("--outcome must be one of");
    // Issue 28: money that paid no order apart from messages that were no payment (no amount).
    const money = await json("report", "list", "--outcome", "unmatched", "--money", "yes");
    expect(money.length).toBe(unmatched.length);
    expect((await json("report", "list", "--money", "no")).map((r: any) => r.kind)).toEqual(["heart"]); // the only one with no amount
    expect((await xpay("report", "list", "--money", "maybe")).err).toContain("--money must be one of: yes, no");
    const clients = await json("client", "list");
    expect(clients.find((c: any) => c.name === "phone-9")).toMatchObject({ kind: "phone", pid: 1001 });
    const table = await xpay("client", "list");
    expect(table.out).toContain("phone-9");
  });
});

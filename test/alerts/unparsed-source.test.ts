// The unparsed_messages alert and `xpay rules unparsed` read one source: the rules' bounded table of
// unrecognised payment-app notifications (store.rules), narrowed to those under the payment app's
// own title (core/rules/unparsed.ts fromSenders). What the alert counts for a merchant is exactly
// what the command it names lists, run as a real CLI process on the same database; a re-send is
// one notification, and a chat that quotes a payment is kept for the operator but not counted.
import { afterEach, expect, test } from "bun:test";
import { CLI_ACTOR } from "../../src/core/admin/audit.ts";
import { addRule } from "../../src/core/rules/manage.ts";
import { report, smsContent } from "../report/util.ts";
import { cliOn } from "../cli/run-cli.ts";
import { alertHarness, pass } from "./util.ts";

let close = () => {};
afterEach(() => close());

test("the alert's count is what `xpay rules unparsed --pid P --from-sender` lists; a new rule clears both", async () => {
  const x = await alertHarness();
  close = x.close;
  await x.h.gw.store.addMerchant({ pid: 1002, name: "Other", secret: "b".repeat(32), now: x.h.clock.now() });
  expect(await pass(x.h, x.s)).toEqual([]);
  const t0 = x.h.clock.now();
  const send = (pid: number, title: string, msg: string, pkg?: string) =>
    report(x.h, `/${pid}`, { from: "p", content: smsContent(title, msg, pkg) }, { secret: pid === 1001 ? undefined : "b".repeat(32) });

  await send(1001, "支付宝", "到账提醒：收款1.00元已存入余额");
  await send(1001, "支付宝", "到账提醒：收款1.00元已存入余额"); // the phone re-sends it: one notification
  await send(1001, "支付宝通知", "到账提醒：收款2.00元已存入余额");
  await send(1001, "张三", "到账提醒：收款9.00元已存入余额", "com.tencent.mm"); // a chat quoting one: kept, not counted
  x.h.clock.advance(120);
  await send(1001, "支付宝", "到账提醒：收款3.00元已存入余额");
  await send(1002, "支付宝", "到账提醒：收款4.00元已存入余额");
  await send(1002, "支付宝", "到账提醒：收款5.00元已存入余额"); // 2 < alert_unparsed (3): no alert for 1002

  const fired = (await pass(x.h, x.s)).filter((m) => m.condition === "unparsed_messages");
  expect(fired.map((m) => m.key)).toEqual(["unparsed_messages:merchant:1001"]);
  const counted = Number(/(\d+) payment notifications/.exec(fired[0].title)![1]);

  const { json } = cliOn(x.h.dbPath);
  const args = (fired[0].command as string).replace(/^xpay /, "").split(" ");
  const listed = json(...args);
  expect(listed.map((m: any) => [m.pid, m.title, m.text, m.count])).toEqual([
    [1001, "支付宝", "到账提醒：收款3.00元已存入余额", 1],
    [1001, "支付宝通知", "到账提醒：收款2.00元已存入余额", 1],
    [1001, "支付宝", "到账提醒：收款1.00元已存入余额", 2],
  ]);
  expect(counted).toBe(listed.length);
  expect(json("rules", "unparsed", "--pid", "1002", "--from-sender")).toHaveLength(2);
  // Without the flag the listing shows the chat too: it is there for `rules test`, not for the alert.
  expect(json("rules", "unparsed", "--pid", "1001").map((m: any) => m.title)).toContain("张三");
  expect(fired[0].since).toBe(t0); // the first of them arrived then

  // A rule for the new wording: the next re-send is recognised (money with no order: an
  // unmatched_report of its own), so its row leaves the table and the count drops under the threshold.
  expect(await addRule(x.h.gw, CLI_ACTOR, { pkg: "com.eg.android.AlipayGphone", titles: ["支付宝"], text: String.raw`^到账提醒：收款(?<amount>\d+(?:\.\d{1,2})?)元已存入余额$`, payType: "alipay" })).toMatchObject({ ok: true });
  x.h.clock.advance(1);
  await send(1001, "支付宝", "到账提醒：收款1.00元已存入余额");
  expect(json(...args)).toHaveLength(2);
  const later = await pass(x.h, x.s);
  expect(later.map((m) => [m.event, m.condition]).sort()).toEqual([["firing", "unmatched_report"], ["resolved", "unparsed_messages"]]);
});

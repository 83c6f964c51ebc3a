// A SQLite database with rows in every table, written through the real gateway (HTTP routes, core
// functions, the store): orders of every status, reports of every outcome, a notification with a
// failed and an acknowledged attempt, merchants with an RSA key, settings, operators with sessions
// (one removed, so an id generator stands above the highest id), a setup token, failed-login
// counters, the audit log, alert channels with a fired alert and its delivery, rules, unparsed
// messages, monitoring clients with a finished online stretch, a V免签 client and an SmsForwarder
// one. Values test the types: NULLs, 0/1 flags, amounts and millisecond times beyond 32 bits, JSON
// text, Chinese, quotes and line breaks.
import { generateKeyPairSync } from "node:crypto";
import { rmSync } from "node:fs";
import { audit, CLI_ACTOR } from "../../src/core/admin/audit.ts";
import { deliverDue } from "../../src/core/notify/deliver.ts";
import { postJson, nativeCreate } from "../helpers.ts";
import { amountReport, createOrder, report, smsContent } from "../report/util.ts";
import { alertHarness, pass } from "../alerts/util.ts";
import { addClient } from "../../src/core/clients/keyed.ts";
import { defaultFormBody, testButtonContent } from "../report/smsforwarder-app.ts";

const answer = (status: number, body: string) => (async () => new Response(body, { status })) as unknown as typeof fetch;

export async function fillEveryTable(): Promise<{ dbPath: string; dir: string; remove(): void }> {
  const x = await alertHarness();
  const { h } = x;
  const store = h.gw.store;
  const now = () => h.clock.now();
  try {
    await pass(h, x.s); // the alert cursors start

    const { publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048, publicKeyEncoding: { type: "spki", format: "pem" }, privateKeyEncoding: { type: "pkcs8", format: "pem" } });
    await store.addMerchant({ pid: 1002, name: '商店 ☕ "two"\nsecond line', secret: "f".repeat(32), now: now() });
    await store.updateMerchant(1002, { rsaPublicKey: publicKey, notifyMethod: "GET", active: false, settings: { epay_status_style: "legacy", note: "引号 \"x\" & y" } });
    const big = await store.addChannel({ pid: 1002, payType: "wxpay", code: "wx_big", name: "微信 B", qrcode: "wxp://f2f0abc", minAmount: 1, maxAmount: 9_999_999_999, dayAmount: 9_999_999_999, sort: -3, now: now() });
    await store.updateChannel(big.id, { enabled: false });
    await store.setSetting("timezone", "Asia/Shanghai");
    await store.setSetting("order_ttl", "900");

    // Orders: timed out (4) first, as the clock moves past its expiry; then paid (2), closed (3),
    // failed (5), pending (1), the largest amount there is.
    const late = await createOrder(h, { money: "40.00" });
    h.clock.advance(901);
    await store.expireOrders(now());
    const paid = await createOrder(h, { money: "10.00", notify_url: "http://merchant.example/notify", param: '{"cart":[1,2]}' });
    expect1((await amountReport(h, 1000, { pay_time: "2026-11-22 10:00:00" })).body.code, 200);
    await amountReport(h, 1000, { pay_time: "2026-11-22 10:00:00" }); // the same payment again: a duplicate
    await amountReport(h, 555); // money for no order: unmatched
    await deliverDue(h.gw, { fetch: answer(500, "<b>down</b>") });
    h.clock.advance(15);
    await deliverDue(h.gw, { fetch: answer(200, "success") });
    const closed = await createOrder(h, { money: "30.00" });
    await store.closeOrder(closed.trade_no, now());
    await postJson(h, "/xpay/order/create", nativeCreate({ pay_type: "qqpay", money: "5.00" })); // no qqpay account: failed
    await createOrder(h, { money: "20.00", name: "会员 \"VIP\"\n月卡" });
    await createOrder(h, { money: "99999999.99" });

    // Reports refused for three reasons (the counters' key is two columns), a heartbeat, a message
    // no rule reads.
    await report(h, "/1001/pc", { amount: 100, pay_type: "alipay", channel_code: "alipay_qr" }, { secret: "0".repeat(32) });
    await report(h, "/1001/pc", { amount: 100, pay_type: "alipay", channel_code: "alipay_qr" }, { timestamp: now() - 100_000 });
    await report(h, "/9999/pc", { amount: 100, pay_type: "alipay", channel_code: "alipay_qr" });
    await report(h, "/1001/heart", { client_name: "pixel6", channel_id: x.account.id }, { method: "GET" });
    await report(h, "/1001", { from: "pixel6", content: smsContent("支付宝通知", "你有一笔新的优惠待领取") });
    await store.rules.addRule({ name: "my-bank", pkg: "com.bank.app", titles: ["到账"], text: "^收款(?<amount>\\d+\\.\\d{2})元$", payType: "alipay", createdAt: now() });
    await store.rules.recordUnparsed({ pid: 1001, key: "k-1", pkg: "com.tencent.mm", title: "微信支付", text: "新的收款方式", reason: "no rule", now: now() }, { total: 100 });

    // A monitoring client with a finished online stretch; then silent long enough to fire an alert.
    const phone = { kind: "phone" as const, pid: 1001, name: "pixel7", channelId: null, extData: '{"battery":80}', lastSeenAt: now() };
    await store.recordClientSeen(phone, [x.account.id], { gap: 90 });
    h.clock.advance(300);
    await store.recordClientSeen({ ...phone, lastSeenAt: now() }, [x.account.id], { gap: 90 });
    h.clock.advance(91);
    await pass(h, x.s);
    await store.addKeyedClient({ kind: "vmq", pid: 1001, name: "vmq-phone", key: "9f86d081884c7d659a2feaa0c55ad015", accountIds: [x.account.id], now: now() });
    // An SmsForwarder phone and its test button (its timestamp is kept, accepted once).
    const sms = await addClient(h.gw, CLI_ACTOR, { kind: "smsforwarder", pid: 1001, name: "sms-phone", accountIds: [] });
    if (!sms.ok) throw new Error(sms.reason);
    const t = testButtonContent();
    const res = await h.app.handle(new Request(`http://localhost/api/report/smsforwarder/${sms.client.id}`, {
      method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: defaultFormBody(t.from, t.content, h.clock.nowMs(), sms.client.key),
    }));
    expect1(res.status, 200);

    // Operators: three sessions, the last one removed (its id must never come back).
    const alice = await store.admin.addOperator({ name: "Alice", passwordHash: "$argon2id$v=19$m=65536,t=2,p=1$c2FsdA$aGFzaA", now: now() });
    for (const n of [1, 2, 3]) await store.admin.createSession({ operatorId: alice!.id, tokenHash: `${n}`.repeat(64), now: now(), ip: "203.0.113.7", userAgent: "Mozilla/5.0 \"x\"" });
    const sessions = await store.admin.listSessions({ operatorId: alice!.id, live: { lastUsedAfter: 0, createdAfter: 0 } });
    await store.admin.deleteSession(Math.max(...sessions.map((s) => s.id)));
    await store.admin.addSetupToken("e".repeat(64), now(), now() + 3600);
    await store.admin.countLogin({ user: "admin", device: "", window: now() - (now() % 60), ip: "198.51.100.66" }, { failed: 3, refused: 2 }, now());
    await audit(h.gw, { actor: CLI_ACTOR, action: "order.close", target: `order:${closed.trade_no}`, before: { status: 1 }, after: { status: 3 }, reason: "客户要求" });
    await audit(h.gw, { actor: { name: "Alice", ip: "203.0.113.7" }, action: "settings.set", target: "setting:order_ttl" });
    void late;
    void paid;
    return { dbPath: h.dbPath, dir: h.dir, remove: () => rmSync(h.dir, { recursive: true, force: true }) };
  } finally {
    x.s.stop();
    store.close();
  }
}

function expect1(got: unknown, want: unknown): void {
  if (got !== want) throw new Error(`fixture: expected ${String(want)}, got ${String(got)}`);
}

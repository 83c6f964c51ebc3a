// Issue 27 item 10: every action that moves money or changes what pays is audited. From the CLI:
// simulate-pay (its --reason kept, the order's state before and after; a run that paid nothing
// writes nothing), alert add/remove (the channel as `alert list` shows it, never its token or
// secret), and settings set with before and after: a switch whose name reads like a secret
// (notify_block_private) keeps its values, a secret setting says only "(empty)" / "(set)".
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers.ts";
import { cliOn } from "./run-cli.ts";

const dir = tempDir("xpay-money-audit-");
const db = join(dir, "audit.db");
const { xpay, json } = cliOn(db);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Row {
  actor: string;
  action: string;
  target: string;
  reason: string;
  before: unknown;
  after: unknown;
}

function audit(): Row[] {
  const d = new Database(db, { readonly: true });
  try {
    const rows = d.query("SELECT actor, action, target, reason, before_json AS before, after_json AS after FROM audit_log ORDER BY id").all() as Record<string, string | null>[];
    return rows.map((r) => ({ actor: r.actor!, action: r.action!, target: r.target!, reason: r.reason ?? "", before: r.before ? JSON.parse(r.before) : null, after: r.after ? JSON.parse(r.after) : null }));
  } finally {
    d.close();
  }
}

const order = (out: string) => {
  const d = new Database(db);
  try {
    const tradeNo = `2026112312000${out.padStart(7, "0")}`;
    d.query("INSERT INTO orders (trade_no, pid, out_trade_no, family, pay_type, name, amount, trade_amount, account_id, status, created_at, expire_time) VALUES (?, 1001, ?, 'native', 'alipay', 'VIP', 1000, 1000, 1, 1, ?, ?)")
      .run(tradeNo, out, Math.floor(Date.now() / 1000), Math.floor(Date.now() / 1000) + 900);
    // A number stored as it is, as before migration 041: its day is one looked up as it is.
    d.query("UPDATE order_number_key SET legacy_through = MAX(legacy_through, ?)").run(tradeNo.slice(0, 8));
    return tradeNo;
  } finally {
    d.close();
  }
};

test("setup", () => {
  expect(xpay("migrate").code).toBe(0);
  json("merchant", "add", "--name", "Shop", "--pid", "1001");
  json("channel", "add", "--pid", "1001", "--pay-type", "alipay", "--code", "a1", "--name", "A", "--qrcode", "https://qr.alipay.com/x");
}, 30_000);

test("simulate-pay is audited with its reason and the order before and after; a run that paid nothing is not", () => {
  const first = order("1");
  const second = order("2");
  const start = audit().length;
  expect(xpay("simulate-pay", first, "--reason", "支付宝账单 10:02 ¥10.00", "--buyer", "payer@example.com").code).toBe(0);
  expect(xpay("simulate-pay", second).code).toBe(0);
  expect(xpay("simulate-pay", first).code).toBe(1); // already paid: nothing changed, nothing audited
  const rows = audit().slice(start);
  expect(rows.map((r) => [r.actor, r.action, r.target, r.reason])).toEqual([
    ["cli", "order.simulate_pay", `order:${first}`, "支付宝账单 10:02 ¥10.00"],
    ["cli", "order.simulate_pay", `order:${second}`, ""],
  ]);
  expect(rows[0]!.before).toMatchObject({ status: "pending", trade_amount: 1000, paid_at: null });
  expect(rows[0]!.after).toMatchObject({ status: "paid", trade_amount: 1000, buyer: "payer@example.com" });
  expect(xpay("simulate-pay", order("3"), "--reason", "x".repeat(501)).err).toBe("error: --reason is too long (at most 500 characters)\n");
}, 30_000);

test("alert add and remove are audited; the channel's token and secret never are", () => {
  const start = audit().length;
  const token = "123456789:AAH-secret-bot-token";
  expect(xpay("alert", "add", "--type", "telegram", "--name", "tg", "--token", token, "--chat-id", "-1001").code).toBe(0);
  const hook = json("alert", "add", "--type", "webhook", "--name", "ops", "--url", "https://ops.example.com/in?key=hook-secret-q") as { secret: string };
  expect(xpay("alert", "remove", "--name", "tg").code).toBe(0);
  expect(xpay("alert", "remove", "--name", "tg").code).toBe(1); // no such channel: nothing audited
  const rows = audit().slice(start);
  expect(rows.map((r) => [r.action, r.target])).toEqual([
    ["alert.add", "alert_channel:tg"],
    ["alert.add", "alert_channel:ops"],
    ["alert.remove", "alert_channel:tg"],
  ]);
  expect(rows[0]!.after).toMatchObject({ name: "tg", type: "telegram", config: { chat_id: "-1001" } });
  expect(rows[2]!.before).toMatchObject({ name: "tg", type: "telegram" });
  const log = JSON.stringify(rows);
  for (const secret of [token, hook.secret, "hook-secret-q"]) expect(log).not.toContain(secret);
}, 30_000);

test("settings set: before and after, a switch named like a secret keeps its values, a secret says only set or empty", () => {
  const start = audit().length;
  expect(xpay("settings", "set", "notify_block_private", "1").code).toBe(0);
  expect(xpay("settings", "set", "third_account_secret", "the-third-party-secret").code).toBe(0);
  expect(xpay("settings", "set", "report_unmatched_daily", "500").code).toBe(0);
  const rows = audit().slice(start);
  expect(rows.map((r) => [r.action, r.target, r.before, r.after])).toEqual([
    ["settings.set", "setting:notify_block_private", { notify_block_private: "0" }, { notify_block_private: "1" }],
    ["settings.set", "setting:third_account_secret", { third_account_secret: "(empty)" }, { third_account_secret: "(set)" }],
    ["settings.set", "setting:report_unmatched_daily", { report_unmatched_daily: "1000" }, { report_unmatched_daily: "500" }],
  ]);
  expect(JSON.stringify(rows)).not.toContain("the-third-party-secret");
}, 30_000);

// `xpay stats` (issue 18): the terminal table and the JSON of the income figures, on the real CLI.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { chmodSync, chownSync, copyFileSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { openGateway } from "../../src/server/bootstrap.ts";
import { startOfLocalDay } from "../../src/core/stats/calendar.ts";
import { asRoot, OTHER_UID, otherUser } from "../as-other-user.ts";
import { tempDir } from "../helpers.ts";
import { cliOn } from "./run-cli.ts";

const dir = tempDir("xpay-stats-cli-");
const db = join(dir, "xpay.db");
const { xpay, json, refused } = cliOn(db);
const now = Math.floor(Date.now() / 1000);
const today = startOfLocalDay(now, "Asia/Shanghai");

beforeAll(async () => {
  const gw = openGateway({ db });
  await gw.store.addMerchant({ pid: 1001, name: "Shop", secret: "s".repeat(32), now });
  await gw.store.addMerchant({ pid: 1002, name: "Other", secret: "t".repeat(32), now });
  const a = await gw.store.addChannel({ pid: 0, payType: "alipay", code: "a", name: "Alipay A", qrcode: "https://qr.alipay.com/a", now });
  const w = await gw.store.addChannel({ pid: 0, payType: "wxpay", code: "w", name: "WeChat W", qrcode: "https://example.com/w", now });
  gw.store.close();
  const raw = new Database(db);
  const add = raw.query(
    `INSERT INTO orders (trade_no, pid, out_trade_no, family, pay_type, name, amount, trade_amount, account_id, status, created_at, expire_time, paid_at)
     VALUES (?, ?, ?, 'native', ?, 'x', ?, ?, ?, ?, ?, ?, ?)`,
  );
  const at = Math.max(today, now - 60); // today, whatever the hour
  add.run("T1", 1001, "O1", "alipay", 123456, 123456, a.id, 2, at, at + 900, at);
  add.run("T2", 1002, "O2", "wxpay", 50, 50, w.id, 2, at, at + 900, at);
  add.run("T3", 1001, "O3", "alipay", 700, 700, a.id, 4, at, at + 900, null);
  add.run("T4", 1001, "O4", "alipay", 900, 900, a.id, 2, today - 86400 + 10, today - 86400 + 900, today - 86400 + 20); // yesterday
  raw.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("xpay stats", () => {
  test("JSON: cents and yuan, per day, today last", () => {
    const r = json("stats", "--days", "2");
    expect(r.timezone).toBe("Asia/Shanghai");
    expect(r.by).toBe("day");
    expect(r.rows.length).toBe(2);
    expect(r.rows[1]).toMatchObject({ paid_count: 2, paid_cents: 123506, paid_yuan: "1235.06", created: 3 });
    expect(r.rows[0]).toMatchObject({ paid_count: 1, paid_cents: 900, paid_yuan: "9.00", created: 1, paid_ratio: 1 });
    expect(r.total).toEqual({ paid_count: 3, paid_cents: 124406, paid_yuan: "1244.06", created: 4, paid_ratio: 0.75 });
    expect(r.from).toBe(today - 86400);
    expect(r.from_local).toEndWith("00:00:00 +08:00");
  });

  test("the table: aligned columns, ¥ and two decimals, a totals row", () => {
    const r = xpay("stats", "--by", "pay-type");
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split("\n");
    expect(lines[0]).toStartWith("income ");
    expect(lines[1]).toMatch(/^pay type +paid +amount +created +paid\/created$/);
    expect(lines[2]).toMatch(/^alipay +2 +¥1243\.56 +3 +66\.7%$/);
    expect(lines[3]).toMatch(/^wxpay +1 +¥0\.50 +1 +100\.0%$/);
    expect(lines[4]).toMatch(/^-+( +-+){4}$/);
    expect(lines[5]).toMatch(/^total +3 +¥1244\.06 +4 +75\.0%$/);
    // Right-aligned figures: every line is as long as the header.
    for (const l of lines.slice(2)) expect(l.length).toBe(lines[1]!.length);
  });

  test("--pid and --by merchant / account", () => {
    expect(json("stats", "--pid", "1002").total).toMatchObject({ paid_count: 1, paid_cents: 50 });
    expect(json("stats", "--by", "merchant").rows.map((r: { label: string; paid_cents: number }) => [r.label, r.paid_cents])).toEqual([["1001 Shop", 124356], ["1002 Other", 50]]);
    expect(json("stats", "--by", "account").rows.map((r: { label: string }) => r.label)).toEqual(["#1 Alipay A (alipay)", "#2 WeChat W (wxpay)"]);
    expect(json("stats", "--days", "1", "--by", "hour").rows.length).toBeGreaterThanOrEqual(1);
  });

  test("bad options are refused in one line", () => {
    refused(["stats", "--by", "week"], "--by must be one of: day, hour, pay-type, account, merchant");
    refused(["stats", "--days", "0"], "--days must be a whole number >= 1");
    refused(["stats", "--pid", "42"], "no merchant 42; see xpay merchant list");
  });

  test("it reads a database this user may not write", () => {
    chmodSync(dir, 0o755); // mkdtemp makes it 0700: the other user must reach the copy
    const folder = join(dir, "ro");
    mkdirSync(folder);
    const copy = join(folder, "xpay.db");
    copyFileSync(db, copy);
    if (asRoot) chownSync(copy, OTHER_UID, OTHER_UID);
    chmodSync(copy, 0o444);
    chmodSync(folder, 0o555);
    // As root, `nobody` runs it, from a copy it can reach when the checkout is closed to it.
    const other = otherUser(dir);
    if (other.unavailable) return console.warn(`skipped: ${other.unavailable}`);
    const p = Bun.spawnSync(other.argv(["--db", copy, "stats", "--json"]), { cwd: other.cwd, env: { ...process.env, NO_COLOR: "1", XPAY_DB: "" } as Record<string, string> });
    other.cleanup();
    chmodSync(folder, 0o755);
    expect(p.stderr.toString()).toBe("");
    expect(JSON.parse(p.stdout.toString()).total.paid_count).toBe(3);
  });
});

// Issue 28 item 6: no machine English in the Chinese console. Report reasons read in the page's
// language with amounts in yuan (the raw reason in a title; an unknown wording as it is), every
// audit action key the code writes has a label in both languages, user agents read "Chrome 131 ·
// Windows".
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { actionLabel } from "../../src/admin/audit-labels.ts";
import { en } from "../../src/admin/i18n/en.ts";
import { LANG_COOKIE, translator } from "../../src/admin/i18n/index.ts";
import { zh } from "../../src/admin/i18n/zh.ts";
import { reasonText } from "../../src/admin/reason-text.ts";
import { userAgentShort } from "../../src/admin/user-agent.ts";
import { login } from "../../src/core/admin/login.ts";
import { seed } from "../helpers.ts";
import { amountReport } from "../report/util.ts";
import { type AdminHarness, adminHarness, PASSWORD } from "./support.ts";

const tz = translator("zh");
const te = translator("en");

describe("report reasons", () => {
  test.each([
    ["no pending order matches amount 6660, pay_type alipay, account 3", "没有待支付订单匹配 ¥66.60 · 支付宝 · 账户 3", "No pending order matches ¥66.60 · Alipay · account 3"],
    ["amount 1001 differs from order 2026112600000000001234 (1000)", "金额 ¥10.01 与订单 2026112600000000001234 的实付金额 ¥10.00 不同", "Amount ¥10.01 differs from order 2026112600000000001234 (¥10.00)"],
    ["order 20261126000000001234 timed out more than 7200 s ago; nothing paid", "订单 20261126000000001234 超时已超过 2 小时；未入账", "Order 20261126000000001234 timed out more than 2 h ago; nothing paid"],
    ["2 pending orders match amount 123456, pay_type wxpay; nothing paid", "2 个待支付订单都匹配 ¥1,234.56 · 微信支付；未入账", "2 pending orders match ¥1,234.56 · WeChat Pay; nothing paid"],
    ["out_order_id A1 names no order of this merchant; matched by amount", "out_order_id A1 没有对应的订单；按金额匹配", "out_order_id A1 names no order; matched by amount"],
    ['rejected wording "蚂蚁森林"', "含有排除措辞「蚂蚁森林」", 'Rejected wording "蚂蚁森林"'],
    ["paid", "已入账", "paid"],
    ["paid (out_order_id A1 names no order of this merchant; matched by amount)", "已入账（out_order_id A1 没有对应的订单；按金额匹配）", "paid (out_order_id A1 names no order; matched by amount)"],
    ["assigned to 20261126000000001234 by alice: 账单; 核对过; reported 6661 cents, order payable 6660 cents", "alice 分配给订单 20261126000000001234：账单; 核对过；上报 ¥66.61，订单实付 ¥66.60", "Assigned to 20261126000000001234 by alice: 账单; 核对过; reported ¥66.61, order payable ¥66.60"],
    ["something a newer version says", "something a newer version says", "something a newer version says"],
  ])("%p", (raw, z, e) => {
    expect(reasonText(raw, tz)).toBe(z);
    expect(reasonText(raw, te)).toBe(e);
  });
});

describe("audit action labels", () => {
  /** Every action key the code writes: literals after `action:` / `action =` (ternaries too) and the bulk ACTION map. */
  async function actionKeys(): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const f of new Glob("src/**/*.{ts,tsx}").scanSync(".")) {
      if (f.startsWith("src/admin/i18n/")) continue; // the labels themselves
      const text = await Bun.file(f).text();
      if (f.startsWith("src/admin/")) {
        // The console's own audit calls (backup.run, alert.test): only `action: "key"`, since its
        // pages hold form `action=` attributes beside translated texts on the same line.
        for (const k of text.matchAll(/\baction:\s*"([a-z_]+\.[a-z_]+)"/g)) found.set(k[1]!, f);
        continue;
      }
      for (const m of text.matchAll(/\baction\b\s*(?::|=)\s*([^;\n]*)/gi)) for (const k of m[1]!.matchAll(/"([a-z_]+\.[a-z_]+)"/g)) found.set(k[1]!, f);
    }
    return found;
  }

  test("every action key used in src has a label in both languages", async () => {
    const keys = await actionKeys();
    expect(keys.size).toBeGreaterThan(30);
    expect(keys.has("session.login")).toBe(true);
    expect(keys.has("order.bulk_close")).toBe(true);
    const missing = [...keys].filter(([k]) => !(`act.${k}` in zh) || !(en as Record<string, string>)[`act.${k}`]).map(([k, f]) => `${k} (${f})`);
    expect(missing).toEqual([]);
    expect(actionLabel(tz, "session.login")).toBe("登录");
    expect(actionLabel(te, "session.login")).toBe("Signed in");
    expect(actionLabel(tz, "future.thing")).toBe("future.thing");
  });
});

describe("user agents", () => {
  test.each([
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", "Chrome 131 · Windows"],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86", "Edge 131 · Windows"],
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15", "Safari 17.4 · macOS"],
    ["Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1", "Safari 17.4 · iOS"],
    ["Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1", "Chrome 131 · iOS"],
    ["Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox 133 · Linux"],
    ["Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36", "Chrome 131 · Android"],
    ["Mozilla/5.0 (Linux; Android 13; V2148A) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/107.0.5304.141 Mobile Safari/537.36 MicroMessenger/8.0.47.2560(0x28002F35) WeChat/arm64", "WeChat 8.0 · Android"],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0", "Opera 115 · Windows"],
    ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.6778.85 Safari/537.36", "Chrome 131 · Linux"],
    ["curl/8.5.0", "curl 8.5.0"],
    ["SomeBot", "SomeBot"],
    ["", ""],
  ])("%p", (ua, short) => expect(userAgentShort(ua)).toBe(short));
});

describe("on the pages", () => {
  let h: AdminHarness;
  beforeEach(async () => (h = await adminHarness()));
  afterEach(() => h.close());
  const get = async (path: string, lang?: string) => (await h.get(path, { cookie: lang ? `${h.login.cookie}; ${LANG_COOKIE}=${lang}` : h.login.cookie })).text();

  test("an unmatched ¥66.60 reads in yuan and Chinese on the reports list and the report's page", async () => {
    await seed(h);
    const r = await amountReport(h, 6660);
    expect(r.body.data.outcome).toBe("unmatched");
    const list = await get("/admin/reports");
    expect(list).toContain("没有待支付订单匹配 ¥66.60 · 支付宝 · 通道编码 alipay_qr");
    expect(list).not.toContain(">no pending order");
    expect(list).toContain('title="no pending order matches amount 6660');
    const id = list.match(/href="\/admin\/reports\/(\d+)"/)![1];
    expect(await get(`/admin/reports/${id}`, "en")).toContain("No pending order matches ¥66.60 · Alipay");
  });

  test("the audit log shows labels, the sessions page short user agents", async () => {
    const ua = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    const r = await login(h.gw, "alice", PASSWORD, { ip: "203.0.113.9", userAgent: ua });
    expect(r.kind).toBe("ok");
    const audit = await get("/admin/audit");
    expect(audit).toContain('data-action="session.login">登录</td>');
    expect(await get("/admin/audit", "en")).toContain('data-action="session.login">Signed in</td>');
    const sessions = await get("/admin/sessions");
    expect(sessions).toContain(`title="${ua}">Chrome 131 · Windows</td>`);
  });
});

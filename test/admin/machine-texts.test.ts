// Issue 28 item 6: no machine English in the Chinese console. Report reasons read in the page's
// language with amounts in yuan (the raw reason in a title; an unknown wording as it is), every
// audit action key the code writes has a label in both languages, user agents read "Chrome 131 ·
// Windows". Refusals from the core (core/problem.ts codes) and report reason codes
// (core/reasons.ts) have texts in both languages, and the Chinese ones carry no English prose;
// the pages for reports, alerts, rules and operators show no English sentence of the core in zh.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { actionLabel } from "../../src/admin/audit-labels.ts";
import { en } from "../../src/admin/i18n/en.ts";
import { LANG_COOKIE, translator } from "../../src/admin/i18n/index.ts";
import { zh } from "../../src/admin/i18n/zh.ts";
import { reasonText } from "../../src/admin/reason-text.ts";
import { userAgentShort } from "../../src/admin/user-agent.ts";
import { codedText } from "../../src/admin/reason-codes.ts";
import { REASON_CODES } from "../../src/core/reasons.ts";
import { login } from "../../src/core/admin/login.ts";
import { seed } from "../helpers.ts";
import { amountReport, report, smsContent } from "../report/util.ts";
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

/**
 * English prose: three English words in a row, once the names a Chinese text may carry are taken
 * out (flags, field and setting names, package names, URLs, quoted samples). "没有添加：--name must
 * be 1-40 letters" is found; "token 应形如 123456789:AA..." is not.
 */
export function englishProse(text: string): string | null {
  const plain = text
    .replace(/<[^>]+>/g, " ")
    .replace(/&quot;|&#39;|&amp;|&lt;|&gt;/g, " ")
    .replace(/https?:\/\/\S+/g, " ")
    .replace(/--[a-z][a-z-]*/g, " ")
    .replace(/\b[a-z]+(?:[._][a-z0-9]+)+\b/gi, " ") // com.tencent.mm, order_id, report_unmatched_daily
    .replace(/"[^"]*"|「[^」]*」/g, " ");
  return /[A-Za-z]{2,}(?:[ ,'()\d:-]+[A-Za-z]{2,}){2,}/.exec(plain)?.[0] ?? null;
}

/** Every refusal code the core words: `problem("code", ...)` literals under src/core. */
async function problemCodes(): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const f of new Glob("src/core/**/*.ts").scanSync(".")) {
    for (const m of (await Bun.file(f).text()).matchAll(/\bproblem\(\s*(?:[^"()]*\?\s*)?"([a-z_]+\.[a-z_]+)"(?:\s*:\s*"([a-z_]+\.[a-z_]+)")?/g)) {
      found.set(m[1]!, f);
      if (m[2]) found.set(m[2], f);
    }
  }
  return found;
}

describe("refusals and reasons from the core", () => {
  test("the prose detector finds a core sentence and lets names through", () => {
    expect(englishProse("没有添加：--name must be 1-40 letters, digits")).toBe("must be 1-40 letters, digits");
    expect(englishProse("没有添加：token 应形如 123456789:AA...（@BotFather 给出的 token）")).toBeNull();
    expect(englishProse("out_order_id A1 没有对应的订单；按金额匹配")).toBeNull();
  });

  test("every refusal code the core can produce has a text in both languages, the Chinese one without English prose", async () => {
    const codes = await problemCodes();
    expect(codes.size).toBeGreaterThan(30);
    expect(codes.has("rule.title_contact")).toBe(true);
    expect(codes.has("alert.missing_or_webhook")).toBe(true);
    const missing = [...codes].filter(([c]) => !(`problem.${c}` in zh) || !(en as Record<string, string>)[`problem.${c}`]).map(([c, f]) => `${c} (${f})`);
    expect(missing).toEqual([]);
    const prose = [...codes.keys()].map((c) => [c, englishProse((zh as Record<string, string>)[`problem.${c}`]!)]).filter(([, p]) => p !== null);
    expect(prose).toEqual([]);
  });

  test("every report reason code reads in Chinese without English prose", () => {
    const samples = { claim: { amount: 100, pay_type: "alipay" }, no: "N1", n: 1, window: 600, orders: ["N1"], field: "order_id", id: "X", pay: "alipay", expected: "wxpay", amount: 100, ms: 100, pkg: "com.example.app", title: 128, text: "1.234", rule: "operator:x", w: "红包", client: "phone", pay_type: "wxpay", by: "alice", why: { code: "no_wording", args: {} } };
    for (const code of REASON_CODES) {
      const zhText = codedText({ code, args: samples } as never, tz);
      expect([code, englishProse(zhText)]).toEqual([code, null]);
    }
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

  /** The page's notices and field errors (where a refusal shows), as text. */
  const refusals = (html: string) => [...html.matchAll(/class="(?:notice notice-error|field-error|tag tag-warn)"[^>]*>([\s\S]*?)<\/(?:p|span)>/g)].map((m) => m[1]!);
  const noProse = (html: string) => expect(refusals(html).map(englishProse).filter((p) => p !== null)).toEqual([]);

  test("rules: refusals of a test, an add and a name taken read in Chinese", async () => {
    const good = { package: "com.tencent.mm", titles: "微信支付", text: String.raw`^收款(?<amount>\d+(?:\.\d{1,2})?)元$`, pay_type: "wxpay", name: "wx1" };
    const cases: [Record<string, string>, string][] = [
      [{ ...good, titles: "微信", do: "test" }, "可能是联系人、群或应用自带聊天的名字"],
      [{ ...good, text: "收款", do: "add" }, "正文规则必须锚定"],
      [{ ...good, text: "^收款(\\d+)元$", do: "add" }, "标出金额"],
      [{ ...good, package: "wechat", do: "add" }, "安卓包名"],
      [{ ...good, titles: "^(微信支付)$", do: "add" }, "不是正则"],
    ];
    for (const [form, words] of cases) {
      const html = await (await h.post("/admin/rules", form)).text();
      expect(html).toContain(words);
      noProse(html);
    }
    expect((await h.post("/admin/rules", { ...good, do: "add" })).status).toBe(303);
    const taken = await h.post("/admin/rules", { ...good, do: "add" });
    expect(taken.status).toBe(422);
    const html = await taken.text();
    expect(html).toContain("已有名为 wx1 的规则");
    noProse(html);
    expect(await (await h.post("/admin/rules", { ...good, do: "add" }, { cookie: `${h.login.cookie}; ${LANG_COOKIE}=en` })).text()).toContain("A rule named wx1 exists already");
  });

  test("alerts: refusals and a test that timed out read in Chinese", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ type: "webhook", name: "w" }, "webhook 通道需要填写 url"],
      [{ type: "webhook", name: "w", o_url: "ftp://x.example" }, "url 必须是 http(s) 地址"],
      [{ type: "webhook", name: "w", o_url: "http://169.254.169.254/x" }, "这类地址不能作为告警目标"],
      [{ type: "webhook", name: "w", o_url: "https://ops.example.com/x", o_secret: "short" }, "secret 至少 16 个字符"],
      [{ type: "dingtalk", name: "d", webhook: "https://oapi.dingtalk.com/robot/send" }, "Webhook 地址"],
      [{ type: "email", name: "m", o_host: "smtp.example.com", o_from: "nobody", o_to: "ops@example.com" }, "from 必须是一个邮箱地址"],
    ];
    for (const [form, words] of cases) {
      const r = await h.post("/admin/alerts", form);
      expect(r.status).toBe(422);
      const html = await r.text();
      expect(html).toContain(words);
      noProse(html);
    }
    // A bot API that answers 200 with no JSON: the test fails in xpay's own words, in Chinese.
    const odd = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("hello") });
    try {
      const add = { type: "telegram", name: "tg", o_token: "123456789:AAAAAAAAAAAAAAAAAAAAAAAA", o_chat_id: "42", o_base_url: `http://127.0.0.1:${odd.port}` };
      expect((await h.post("/admin/alerts", add)).status).toBe(303);
      const html = await (await h.post("/admin/alerts/tg/test", {})).text();
      expect(html).toContain("测试消息发送失败（tg）：应答不是 JSON：hello");
      noProse(html);
      expect(await (await h.post("/admin/alerts", add)).text()).toContain("已有名为 tg 的告警通道");
    } finally {
      odd.stop(true);
    }
  });

  test("operators: refusals read in Chinese", async () => {
    for (const form of [{ name: "bad name", password: "a long enough pass", repeat: "a long enough pass" }, { name: "bob", password: "short", repeat: "short" }, { name: "alice", password: "a long enough pass", repeat: "a long enough pass" }]) {
      const html = await (await h.post("/admin/operators", form)).text();
      expect(refusals(html).length).toBeGreaterThan(0);
      noProse(html);
    }
  });

  test("reports: a forwarded message that is no payment reads in Chinese, from its code", async () => {
    await seed(h);
    const list = await get("/admin/reports");
    noProse(list);
    const r = await report(h, "/1001", { from: "phone", content: smsContent("蚂蚁森林", "你收取了 12g 能量") });
    expect(r.body.data.outcome).toBe("unmatched");
    const row = (await h.gw.store.listReports({}))[0]!;
    expect(row.reasonCode).toBe("not_payment");
    const page = await get(`/admin/reports/${row.id}`);
    expect(page).toContain("不是收款通知：");
    expect(englishProse(page.slice(page.indexOf("不是收款通知：") - 1, page.indexOf("</dd>", page.indexOf("不是收款通知："))))).toBeNull();
    expect(await get(`/admin/reports/${row.id}`, "en")).toContain("Not a payment message: ");
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

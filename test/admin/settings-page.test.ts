// Issue 17, the console's settings page: every operator setting with its label, help text (a
// Chinese one for each), value and default; saved with `xpay settings set`'s checks (422 under
// each wrong field and nothing changed when any is wrong); secret settings never shown, only set
// or not, replaced or cleared; audited with before and after (secrets masked); the running server
// follows at once.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SETTING_TEXT_ZH } from "../../src/admin/i18n/settings.zh.ts";
import { SETTING_LABEL_EN } from "../../src/admin/i18n/settings.en.ts";
import { SETTINGS, Settings, typedSetting } from "../../src/core/settings.ts";
import { type AdminHarness, adminHarness, auditRows } from "./support.ts";

let h: AdminHarness;
beforeAll(async () => (h = await adminHarness()));
afterAll(() => h.close());

const stored = async () => JSON.stringify(await h.gw.store.getSettings());
const auditText = async () => JSON.stringify(await auditRows(h));
const lastAudit = async () => (await auditRows(h)).at(-1)!;
const TOKEN = "tok-0123456789abcdef-secret";
const THIRD = "third-party-secret-value";

/** The form as the browser sends it: every plain setting with its current value. */
async function currentForm(): Promise<Record<string, string>> {
  const s = new Settings(await h.gw.store.getSettings());
  return Object.fromEntries(SETTINGS.filter((d) => !d.secret).map((d) => [d.key, typedSetting(d, s.str(d.key))]));
}

test("every setting has a Chinese label and help text, and an English label", () => {
  const keys = SETTINGS.map((d) => d.key);
  expect(keys.filter((k) => !SETTING_TEXT_ZH[k]?.help || !SETTING_TEXT_ZH[k]?.label)).toEqual([]);
  expect(keys.filter((k) => !SETTING_LABEL_EN[k])).toEqual([]);
});

describe("the page", () => {
  test("lists every setting with its help, current value and default, in Chinese and in English", async () => {
    await h.gw.store.setSetting("order_ttl", "600");
    const html = await (await h.get("/admin/settings")).text();
    for (const d of SETTINGS) {
      expect(html).toContain(`id="setting-${d.key}"`);
      expect(html).toContain(SETTING_TEXT_ZH[d.key]!.help.replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").slice(0, 20));
    }
    expect(html).toContain('name="order_ttl" type="text" value="600"');
    expect(html).toContain("默认：900");
    expect(html).toMatch(/<select id="s-offset_direction" name="offset_direction"><option value="down" selected>down<\/option><option value="up">up<\/option><\/select>/);
    const en = await (await h.get("/admin/settings", { cookie: `${h.login.cookie}; xpay_lang=en` })).text();
    expect(en).toContain("Seconds an order stays payable after creation.");
    expect(en).toContain("Default: 900");
  });

  test("secret settings are never shown: only whether they are set", async () => {
    await h.gw.store.setSetting("metrics_token", TOKEN);
    const html = await (await h.get("/admin/settings")).text();
    expect(html).not.toContain(TOKEN);
    expect(html).toMatch(/data-secret-state="set">已设置<\/span><input id="s-metrics_token" name="metrics_token" type="password"/);
    expect(html).toMatch(/data-secret-state="unset">未设置<\/span><input id="s-third_account_secret"/);
  });
});

describe("an amount setting (max_offset) in yuan, stored in cents (issue 31)", () => {
  test("shown and typed in yuan; 0.50 stores 50 cents; more than two decimals, text or above ¥10.00 refused", async () => {
    const html = await (await h.get("/admin/settings")).text();
    expect(html).toContain('name="max_offset" type="text" value="0.10"');
    expect(html).toContain("默认：¥0.10");
    expect(html).toContain("金额最大偏移（元）");
    for (const [typed, message] of [["5.001", "须为以元为单位的金额，最多两位小数，例如 0.10。"], ["abc", "须为以元为单位的金额，最多两位小数，例如 0.10。"], ["20", "最多为 ¥10.00。"]]) {
      const before = await stored();
      const res = await h.post("/admin/settings", { ...(await currentForm()), max_offset: typed! });
      expect(res.status).toBe(422);
      expect(await res.text()).toContain(message!);
      expect(await stored()).toBe(before);
    }
    const res = await h.post("/admin/settings", { ...(await currentForm()), max_offset: "0.50" });
    expect(res.headers.get("location")).toBe("/admin/settings?saved=1");
    expect((await h.gw.store.getSettings()).max_offset).toBe("50");
    expect(await lastAudit()).toMatchObject({ action: "settings.set", before: { max_offset: "¥0.10" }, after: { max_offset: "¥0.50" } });
    expect(await (await h.get("/admin/settings")).text()).toContain('name="max_offset" type="text" value="0.50"');
    await h.post("/admin/settings", { ...(await currentForm()), max_offset: "0.1" });
    expect((await h.gw.store.getSettings()).max_offset).toBe("10");
  });
});

describe("saving", () => {
  test("any wrong value: 422, a message under each wrong field, nothing saved, no audit row", async () => {
    const before = await stored();
    const audit = await auditText();
    const form = { ...(await currentForm()), order_ttl: "5", offset_direction: "sideways", base_url: "ftp://x", timezone: "Mars/Olympus", pay_tip: "fine", metrics_token: "short" };
    const res = await h.post("/admin/settings", form);
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain("有 5 项设置无效");
    for (const message of ["须为 60 到 86400 之间的整数。", "须为以下之一：down, up。", "须为 http(s) 地址", "须为 IANA 时区名称", "须为空，或 16–200 个"]) expect(html).toContain(message);
    expect(html).toContain('name="order_ttl" type="text" value="5" aria-invalid="true"');
    expect(html).toContain('name="pay_tip" type="text" value="fine"'); // the operator's input is kept
    expect(await stored()).toBe(before);
    expect(await auditText()).toBe(audit);
  });

  test("changed values are saved and audited before/after, and this server uses them at once", async () => {
    expect((await h.gw.settings()).int("heartbeat_timeout")).toBe(90); // cached now
    const res = await h.post("/admin/settings", { ...(await currentForm()), heartbeat_timeout: "120", pay_tip: "扫码后请勿关闭页面", unknown_key: "x" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin/settings?saved=2");
    expect((await h.gw.settings()).int("heartbeat_timeout")).toBe(120);
    expect((await h.gw.store.getSettings()).unknown_key).toBeUndefined();
    expect(await lastAudit()).toMatchObject({ actor: "alice", action: "settings.set", target: "settings", before: { heartbeat_timeout: "90", pay_tip: "" }, after: { heartbeat_timeout: "120", pay_tip: "扫码后请勿关闭页面" } });
    expect(await (await h.get("/admin/settings?saved=2")).text()).toContain("已保存 2 项设置。");
  });

  test("a switch whose name reads like a secret (notify_block_private) is audited with its values", async () => {
    const res = await h.post("/admin/settings", { ...(await currentForm()), notify_block_private: "1" });
    expect(res.status).toBe(303);
    expect(await lastAudit()).toMatchObject({ action: "settings.set", target: "setting:notify_block_private", before: { notify_block_private: "0" }, after: { notify_block_private: "1" } });
    await h.post("/admin/settings", { ...(await currentForm()), notify_block_private: "0" });
  });

  test("the same values again change nothing and write no audit row", async () => {
    const audit = await auditText();
    const res = await h.post("/admin/settings", await currentForm());
    expect(res.headers.get("location")).toBe("/admin/settings?saved=0");
    expect(await auditText()).toBe(audit);
  });

  test("a secret is replaced only when typed, cleared only when ticked; the log says set or empty, never the value", async () => {
    let res = await h.post("/admin/settings", { ...(await currentForm()), third_account_secret: THIRD });
    expect(res.status).toBe(303);
    expect((await h.gw.store.getSettings()).third_account_secret).toBe(THIRD);
    expect((await h.gw.store.getSettings()).metrics_token).toBe(TOKEN); // left empty: kept
    res = await h.post("/admin/settings", { ...(await currentForm()), metrics_token__clear: "1" });
    expect(res.headers.get("location")).toBe("/admin/settings?saved=1");
    expect((await h.gw.store.getSettings()).metrics_token).toBe("");
    expect(await lastAudit()).toMatchObject({ action: "settings.set", target: "setting:metrics_token", before: { metrics_token: "(set)" }, after: { metrics_token: "(empty)" } });
    const log = await auditText();
    expect(log).not.toContain(THIRD);
    expect(log).not.toContain(TOKEN);
    expect(await (await h.get("/admin/audit")).text()).not.toContain(THIRD);
  });
});

// The checks an operator's message rule passes before it is saved (issue 18, issue 27 items 8-9):
// each refusal below would let a rule through that pays on a chat, or hangs the report API, if
// the check were gone.
import { describe, expect, test } from "bun:test";
import { LinearPattern, linearProblem, MAX_INSTRUCTIONS } from "../../src/core/linear-pattern.ts";
import { AMOUNT } from "../../src/core/payment-formats.ts";
import { CHAT_SAMPLES } from "../../src/core/rules/chat-samples.ts";
import { compileRule, nameProblem, type RuleInput, ruleProblem, samplesMatched } from "../../src/core/rules/check.ts";
import { matchPaymentMessage } from "../../src/core/report-rules.ts";

const A = String.raw`(?<amount>\d+(?:\.\d{1,2})?)`;
const good: RuleInput = { name: "wx-new", pkg: "com.tencent.mm", titles: ["微信支付"], text: `^收款到账${A}元，来自.{1,20}$`, payType: "wxpay" };
const problem = (patch: Partial<RuleInput>) => ruleProblem({ ...good, ...patch });

describe("a rule that saves", () => {
  test("the example passes and pays its own wording", () => {
    expect(problem({})).toBeNull();
    const r = matchPaymentMessage({ package_name: "com.tencent.mm", title: "微信支付", msg: "收款到账13.22元，来自张三" }, [compileRule(good)], []);
    expect(r).toEqual({ ok: true, payType: "wxpay", amount: 1322, rule: "operator:wx-new" });
  });

  test("several names; each is compared whole and as sent", () => {
    const rule = compileRule({ ...good, titles: ["微信支付", "微信收款助手"] });
    const pays = (title: string) => matchPaymentMessage({ package_name: "com.tencent.mm", title, msg: "收款到账13.22元，来自张三" }, [rule], []).ok;
    expect([pays("微信支付"), pays("微信收款助手"), pays("微信支付 "), pays("微信"), pays("王小明")]).toEqual([true, true, false, false, false]);
  });
});

describe("a title is a list of names, never a pattern (issue 27, item 9)", () => {
  test("the issue's title: refused, and as a name it would match only itself", () => {
    const attack = String.raw`^(?:微信支付|[\u4e00-\u9fa5]{3})$`;
    expect(problem({ titles: [attack] })).toBe("--title is the sender's exact name, not a pattern: give each name with its own --title (--title 微信支付 --title 微信收款助手)");
    const asName = compileRule({ ...good, titles: [attack] });
    expect(matchPaymentMessage({ package_name: "com.tencent.mm", title: "王小明", msg: "收款到账13.22元，来自张三" }, [asName], []).ok).toBe(false);
  });

  test("names a contact, a group or a lookalike carries are refused", () => {
    expect(problem({ titles: ["微信支付", "张三"] })).toStartWith('--title "张三" is a name a contact, group');
    expect(problem({ titles: ["微信"] })).toStartWith('--title "微信" is a name a contact');
    expect(problem({ titles: ["微信支付 "] })).toStartWith('--title "微信支付 " has a space at an end or an invisible character');
    expect(problem({ titles: ["微信支付\u200b"] })).toContain("invisible character");
    expect(problem({ titles: ["微信\n支付"] })).toContain("invisible character");
    expect(problem({ titles: [] })).toStartWith("--title: 1-10 names");
    expect(problem({ titles: [""] })).toStartWith("--title: each name is 1-64 characters");
    expect(nameProblem("微信收款助手")).toBeNull();
  });
});

describe("the text runs on the linear-time engine (issue 27, item 8)", () => {
  test("ten \\d{0,9} in a row, which froze the process on a 41-character message, runs in linear time", () => {
    const ten = `^收款${A}元${String.raw`\d{0,9}`.repeat(10)}号$`;
    const rule = compileRule({ ...good, text: ten });
    const message = `收款1元${"1".repeat(36)}x`;
    expect(message.length).toBe(41);
    const t0 = performance.now();
    const r = matchPaymentMessage({ package_name: "com.tencent.mm", title: "微信支付", msg: message }, [rule], []);
    expect(r.ok).toBe(false);
    expect(performance.now() - t0).toBeLessThan(250); // seconds on the backtracking RegExp
  });

  test("what needs backtracking does not compile, and says so", () => {
    expect(problem({ text: `^(.)\\1${A}$` })).toStartWith("--text is not a pattern the linear-time engine runs (RE2 syntax: no look-around or back-reference): invalid escape sequence");
    expect(problem({ text: `^(?=收)收款${A}元$` })).toContain("invalid or unsupported Perl syntax: `(?=`");
    expect(problem({ text: `^收款${A}元(?!x)$` })).toContain("invalid or unsupported Perl syntax");
  });

  test("a pattern too large once compiled is refused (its cost is size x text length)", () => {
    expect(problem({ text: `^收款${A}元.{0,200}$` })).toMatch(/^--text is not a pattern the linear-time engine runs .*: too large once compiled \(\d+ steps, at most 300\)/);
    expect(linearProblem(".{0,1000}", 1e6)).toBeNull();
    expect(MAX_INSTRUCTIONS).toBe(300);
  });

  test("JavaScript spellings the operator knows still read: (?<amount>...), \\u escapes", () => {
    expect(problem({ text: String.raw`^\u6536\u6b3e${A}元$` })).toBeNull();
    expect(LinearPattern.compile(String.raw`^(?P<amount>\d+)$`).hasAmount).toBe(true);
  });
});

describe("refused on save, with a reason that says how to fix it", () => {
  test("the text must be anchored at both ends", () => {
    expect(problem({ text: `^收款到账${A}元` })).toStartWith("--text must be anchored");
    expect(problem({ text: `收款到账${A}元$` })).toStartWith("--text must be anchored");
    expect(problem({ text: `^收款到账${A}元\\$` })).toStartWith("--text must be anchored"); // an escaped $ is a character
  });

  test("a pattern that does not compile", () => {
    expect(problem({ text: "^[a-$" })).toMatch(/^--text is not a pattern the linear-time engine runs .+: .+/);
    expect(problem({ text: `^(收款到账${A}元$` })).toContain("missing closing )");
  });

  test("the amount group: named amount, once, in the text", () => {
    expect(problem({ text: "^收款到账(\\d+)元$" })).toBe(`name the amount once, in --text, as the group ${A} (yuan)`);
    expect(problem({ text: `^${A}元${A}$` })).toContain("duplicate capture group name");
  });

  test("a rule that takes a chat-like sample the built-ins refuse", () => {
    // "收款码到账¥X" from a contact nicknamed 微信支付 is in the corpus: a rule for it is a rule for chats.
    expect(problem({ text: `^收款码到账¥${A}$` })).toStartWith("the rule takes a chat-like message the built-in formats refuse (contact 微信支付 sends the issue's wording");
    expect(problem({ text: `^.{0,9}收款码到账¥${A}$` })).toContain("chat-like message");
  });

  test("package, pay type and name", () => {
    expect(problem({ pkg: "wechat" })).toStartWith("--package must be an Android package name");
    expect(problem({ payType: "bank" })).toBe("--pay-type must be one of: alipay, wxpay, qqpay");
    expect(problem({ name: "has space" })).toStartWith("--name must be");
  });
});

describe("the pieces", () => {
  test("the built-in amount compiles on the engine and reads its currency mark", () => {
    expect(linearProblem(AMOUNT)).toBeNull();
    expect(LinearPattern.compile(`收款${AMOUNT}`).wholeGroups("收款¥ 1,234.50")).toEqual({ amount: "¥ 1,234.50" });
    expect(LinearPattern.compile(`收款${AMOUNT}`).wholeGroups("收款12")).toBeNull(); // no mark, no 元
  });

  test("every chat-like sample is refused by the built-ins, and a catch-all rule takes them all", () => {
    for (const s of CHAT_SAMPLES) expect(matchPaymentMessage({ package_name: s.pkg, title: s.title, msg: s.text }).ok).toBe(false);
    const all = compileRule({ ...good, titles: [...new Set(CHAT_SAMPLES.map((s) => s.title))], text: `^.*?${A}.*$` });
    expect(samplesMatched(all).length).toBeGreaterThan(CHAT_SAMPLES.length / 2);
  });
});

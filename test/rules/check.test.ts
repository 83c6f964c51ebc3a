// The checks an operator's message rule passes before it is saved (issue 18): each refusal below
// would let a rule through that pays on a chat, or hangs the report API, if the check were gone.
import { describe, expect, test } from "bun:test";
import { AMOUNT } from "../../src/core/payment-formats.ts";
import { backtrackingProblem, compileRule, type RuleInput, ruleProblem, samplesMatched } from "../../src/core/rules/check.ts";
import { CHAT_SAMPLES } from "../../src/core/rules/chat-samples.ts";
import { matchPaymentMessage } from "../../src/core/report-rules.ts";

const A = String.raw`(?<amount>\d+(?:\.\d{1,2})?)`;
const good: RuleInput = { name: "wx-new", pkg: "com.tencent.mm", title: "^微信支付$", text: `^收款到账${A}元，来自.{1,20}$`, payType: "wxpay" };
const problem = (patch: Partial<RuleInput>) => ruleProblem({ ...good, ...patch });

describe("a rule that saves", () => {
  test("the example passes and pays its own wording", () => {
    expect(problem({})).toBeNull();
    const r = matchPaymentMessage({ package_name: "com.tencent.mm", title: "微信支付", msg: "收款到账13.22元，来自张三" }, [compileRule(good)], []);
    expect(r).toEqual({ ok: true, payType: "wxpay", amount: 1322, rule: "operator:wx-new" });
  });

  test("the amount may be in the title", () => {
    expect(problem({ title: `^收款${A}元$`, text: "^立即查看$" })).toBeNull();
  });
});

describe("refused on save, with a reason that says how to fix it", () => {
  test("patterns must be anchored at both ends", () => {
    expect(problem({ title: "微信支付$" })).toBe("--title must be anchored: start with ^ and end with $ (the whole title, not a part of it)");
    expect(problem({ text: `^收款到账${A}元` })).toStartWith("--text must be anchored");
    expect(problem({ text: `^收款到账${A}元\\$` })).toStartWith("--text must be anchored"); // an escaped $ is a character
  });

  test("a regular expression that does not compile", () => {
    expect(problem({ title: "^(微信支付$" })).toMatch(/^--title is not a valid regular expression: .+/);
    expect(problem({ text: "^[a-$" })).toMatch(/^--text is not a valid regular expression: .+/);
  });

  test("the amount group: once, named amount", () => {
    expect(problem({ text: "^收款到账(\\d+)元$" })).toBe(`name the amount once, in --title or --text, as the group ${A} (yuan)`);
    expect(problem({ title: `^微信支付${A}$`, text: `^${A}$` })).toStartWith("name the amount once");
  });

  test("shapes that backtrack without end", () => {
    expect(problem({ text: `^(?:\\d+)+${A}$` })).toContain("a repeated group holds a repetition or alternatives");
    expect(problem({ text: `^(?:收|款)*${A}$` })).toContain("a repeated group holds a repetition or alternatives");
    expect(problem({ text: `^(.)\\1${A}$` })).toContain("back-references");
    expect(problem({ text: `^.*.*.*${A}$` })).toBe("--text: at most 3 wide repetitions (+, *, {n,} or {n,m} with m >= 10) per pattern");
  });

  test("a title a contact or a group can carry", () => {
    expect(problem({ title: "^.*$" })).toStartWith('--title accepts "张三"');
    expect(problem({ title: "^微信支付.?$" })).toStartWith('--title accepts "微信支付 "');
    expect(problem({ title: "^微信.*$" })).toStartWith('--title accepts "微信"');
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
  test("backtracking shapes: plain repetitions and fixed-count groups pass", () => {
    expect(backtrackingProblem(String.raw`^(?:,\d{3})+$`)).toBeNull();
    expect(backtrackingProblem(String.raw`^[(（]\d+[)）]?$`)).toBeNull();
    expect(backtrackingProblem(String.raw`^(?<amount>\d{1,8}(?:\.\d{1,2})?)$`)).toBeNull();
    expect(backtrackingProblem(String.raw`^(a{2,3}){5}$`)).toContain("repeated group");
    expect(backtrackingProblem(String.raw`^([ab]?)+$`)).toContain("repeated group");
    expect(backtrackingProblem(AMOUNT)).toContain("wide repetitions"); // the built-in amount is the core's, not a rule's
  });

  test("every chat-like sample is refused by the built-ins, and a catch-all rule takes them all", () => {
    for (const s of CHAT_SAMPLES) expect(matchPaymentMessage({ package_name: s.pkg, title: s.title, msg: s.text }).ok).toBe(false);
    const all = compileRule({ ...good, title: "^.*$", text: `^.*?${A}.*$` });
    expect(samplesMatched(all).length).toBeGreaterThan(CHAT_SAMPLES.length / 2);
  });
});

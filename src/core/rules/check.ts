// The checks an operator's message rule passes before it is saved. A rule is data the operator
// types, run against text a stranger can influence (anyone who can make the monitoring phone show
// a notification), so it gets the discipline of the built-in table (core/payment-formats.ts):
// the title is a list of the sender's exact names (never a pattern: `^(?:微信支付|[\u4e00-\u9fa5]{3})$`
// took a chat from 王小明 as a payment, issue 27 item 9), the text an anchored pattern on the
// linear-time engine (core/linear-pattern.ts: no look-around, no back-reference, a bounded size)
// with the amount as the named group `amount`, and no match on any chat-like sample the built-ins
// refuse (chat-samples.ts). What the engine makes impossible needs no check of its own: the shape
// check that stood here (nested repetition, wide repetitions) let ten `\d{0,9}` through.
import { LinearPattern, linearProblem } from "../linear-pattern.ts";
import { isKnownPayType, PAY_TYPES, type PayType } from "../order-input.ts";
import type { MessageRule } from "../payment-formats.ts";
import { type Problem, problem } from "../problem.ts";
import { matchPaymentMessage } from "../report-rules.ts";
import { CHAT_SAMPLES, type ChatSample } from "./chat-samples.ts";

export interface RuleInput {
  name: string;
  pkg: string;
  /** The sender's exact names: the notification's whole title is one of them. */
  titles: string[];
  text: string;
  payType: string;
}

/** Longest text pattern; most names in a title list and the longest name. */
export const RULE_LIMITS = { patternChars: 300, names: 10, nameChars: 64 };

/** Titles a contact, a group or a lookalike can carry: no rule may name one as its sender. */
export const CONTACT_TITLES = ["张三", "李四", "Alice", "某某交流群", "新的朋友", "微信", "微信支付助手"];

export const AMOUNT_EXAMPLE = String.raw`(?<amount>\d+(?:\.\d{1,2})?)`;
export const TITLE_EXAMPLE = "--title 微信支付 --title 微信收款助手";

/** Only after ruleProblem said null: the text compiles. */
export function compileRule(r: RuleInput): MessageRule {
  return { id: `operator:${r.name}`, pkg: r.pkg, payType: r.payType as PayType, titles: [...new Set(r.titles)], text: LinearPattern.compile(r.text) };
}

/** Why one name cannot be a sender's name; null when it can. */
export function nameIssue(name: string): Problem | null {
  const n = RULE_LIMITS.nameChars;
  if (name === "" || name.length > n) return problem("rule.title_length", `--title: each name is 1-${n} characters`, { n });
  if (/^\^.*\$$/s.test(name) || /^\^\(|\)\$$/.test(name)) {
    return problem("rule.title_pattern", `--title is the sender's exact name, not a pattern: give each name with its own --title (${TITLE_EXAMPLE})`, { example: TITLE_EXAMPLE });
  }
  const quoted = JSON.stringify(name);
  // A space at either end, a zero-width or control character: what a lookalike nickname adds.
  if (name.trim() !== name || /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(name)) {
    return problem("rule.title_lookalike", `--title ${quoted} has a space at an end or an invisible character: a contact's lookalike name, not the sender's`, { name: quoted });
  }
  if (CONTACT_TITLES.includes(name)) {
    return problem("rule.title_contact", `--title ${quoted} is a name a contact, group or the app's own chat can have: name the payment sender (${TITLE_EXAMPLE})`, { name: quoted, example: TITLE_EXAMPLE });
  }
  return null;
}

export const nameProblem = (name: string): string | null => nameIssue(name)?.text ?? null;

/** The checks of the text pattern on its own. */
export function textIssue(src: string): Problem | null {
  const n = RULE_LIMITS.patternChars;
  if (src.length > n) return problem("rule.text_long", `--text is longer than ${n} characters`, { n });
  if (!src.startsWith("^") || !src.endsWith("$") || /(?:^|[^\\])(?:\\\\)*\\\$$/.test(src)) {
    return problem("rule.text_anchored", "--text must be anchored: start with ^ and end with $ (the whole text, not a part of it)");
  }
  const engine = linearProblem(src);
  if (engine) return problem("rule.text_engine", `--text is not a pattern the linear-time engine runs (RE2 syntax: no look-around or back-reference): ${engine}`, { detail: engine });
  if (!LinearPattern.compile(src).hasAmount) return problem("rule.text_amount", `name the amount once, in --text, as the group ${AMOUNT_EXAMPLE} (yuan)`, { example: AMOUNT_EXAMPLE });
  return null;
}

export const textProblem = (src: string): string | null => textIssue(src)?.text ?? null;

/** The chat-like samples a rule would take as a payment (whatever their app: only the shape counts). */
export function samplesMatched(rule: MessageRule, samples: ChatSample[] = CHAT_SAMPLES): ChatSample[] {
  return samples.filter((s) => matchPaymentMessage({ package_name: rule.pkg, title: s.title, msg: s.text }, [rule], []).ok);
}

/** Why the rule cannot be saved; null when it can. */
export function ruleIssue(r: RuleInput, samples: ChatSample[] = CHAT_SAMPLES): Problem | null {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/.test(r.name)) return problem("rule.name", "--name must be 1-40 letters, digits, '.', '_' or '-', starting with a letter or digit");
  if (!/^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+$/.test(r.pkg) || r.pkg.length > 100) {
    return problem("rule.package", "--package must be an Android package name, exactly as the forwarder sends it (e.g. com.tencent.mm)");
  }
  // An account has one of these (channel-input.ts): a rule of any other type could never pay.
  if (!isKnownPayType(r.payType)) return problem("rule.pay_type", `--pay-type must be one of: ${PAY_TYPES.join(", ")}`, { types: PAY_TYPES.join(", ") });
  const n = RULE_LIMITS.names;
  if (r.titles.length === 0 || r.titles.length > n) return problem("rule.titles", `--title: 1-${n} names, one --title each (${TITLE_EXAMPLE})`, { n, example: TITLE_EXAMPLE });
  const bad = r.titles.map(nameIssue).find((p) => p !== null) ?? textIssue(r.text);
  if (bad) return bad;
  const hit = samplesMatched(compileRule(r), samples)[0];
  if (hit) {
    const [title, text] = [JSON.stringify(hit.title), JSON.stringify(hit.text)];
    return problem(
      "rule.takes_chat",
      `the rule takes a chat-like message the built-in formats refuse (${hit.name}: title ${title}, text ${text}); make the text match the whole notification of the payment sender only`,
      { sample: hit.name, title, text },
    );
  }
  return null;
}

export const ruleProblem = (r: RuleInput, samples: ChatSample[] = CHAT_SAMPLES): string | null => ruleIssue(r, samples)?.text ?? null;

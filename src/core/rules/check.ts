// The checks an operator's message rule passes before it is saved. A rule is data the operator
// types, run against text a stranger can influence (anyone who can make the monitoring phone show
// a notification), so it gets the discipline of the built-in table (core/payment-formats.ts):
// anchored patterns, the amount as the named group `amount`, a title that names the sender and no
// one else, no match on any chat-like sample the built-ins refuse (chat-samples.ts), and no shape
// that backtracks without end. Matching is further capped in length (operator-rules.ts).
import { isKnownPayType, PAY_TYPES, type PayType } from "../order-input.ts";
import type { MessageRule } from "../payment-formats.ts";
import { matchPaymentMessage } from "../report-rules.ts";
import { CHAT_SAMPLES, type ChatSample } from "./chat-samples.ts";

export interface RuleInput {
  name: string;
  pkg: string;
  title: string;
  text: string;
  payType: string;
}

/** Longest pattern source, and the longest title and text an operator rule is ever run on. */
export const RULE_LIMITS = { patternChars: 300, titleChars: 128, textChars: 256, wideQuantifiers: 3 };

/** Titles a contact, a group or a lookalike can carry: a sender pattern must accept none of them. */
export const CONTACT_TITLES = ["张三", "李四", "Alice", "某某交流群", "新的朋友", "微信", "微信支付 ", "微信支付\u200b", "微信支付助手", "支付宝 ", "QQ钱包 "];

export const AMOUNT_EXAMPLE = String.raw`(?<amount>\d+(?:\.\d{1,2})?)`;

export function compileRule(r: RuleInput): MessageRule {
  return { id: `operator:${r.name}`, pkg: r.pkg, payType: r.payType as PayType, title: new RegExp(r.title), text: new RegExp(r.text) };
}

interface Quantifier {
  end: number;
  /** Matches a varying number of times (+, *, ?, {n,m} with m != n). */
  variable: boolean;
  /** May match more than once. */
  repeats: boolean;
  /** Unbounded, or up to 10 times or more: what makes adjacent repetitions expensive. */
  wide: boolean;
}

function quantifierAt(src: string, i: number): Quantifier | null {
  const c = src[i];
  let q: Quantifier | null = null;
  if (c === "*" || c === "+") q = { end: i + 1, variable: true, repeats: true, wide: true };
  else if (c === "?") q = { end: i + 1, variable: true, repeats: false, wide: false };
  else if (c === "{") {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i));
    if (!m) return null;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
    q = { end: i + m[0].length, variable: max !== min, repeats: max > 1, wide: max >= 10 };
  }
  if (q && src[q.end] === "?") q.end++; // lazy
  return q;
}

/** Why the pattern may backtrack without end (nested repetition, back-references, too many wide repetitions); null when it cannot. */
export function backtrackingProblem(src: string): string | null {
  if (/\\[1-9]|\\k</.test(src)) return "back-references (\\1, \\k<name>) are not allowed";
  const stack = [{ variable: false, alternation: false }];
  let wide = 0;
  let i = 0;
  const quantify = (inner: { variable: boolean; alternation: boolean } | null): string | null => {
    const q = quantifierAt(src, i);
    if (!q) return null;
    if (q.wide) wide++;
    if (inner && q.repeats && (inner.variable || inner.alternation)) {
      return "a repeated group holds a repetition or alternatives, e.g. (a+)+ or (a|b)*: it can take exponential time; repeat a plain group or a character class instead";
    }
    if (q.variable) stack.at(-1)!.variable = true;
    i = q.end;
    return null;
  };
  while (i < src.length) {
    const c = src[i]!;
    let problem: string | null = null;
    if (c === "\\") {
      i += 2;
      problem = quantify(null);
    } else if (c === "[") {
      i++;
      while (i < src.length && src[i] !== "]") i += src[i] === "\\" ? 2 : 1;
      i++;
      problem = quantify(null);
    } else if (c === "(") {
      stack.push({ variable: false, alternation: false });
      i++;
      if (src[i] === "?") i = src[i + 1] === "<" && src[i + 2] !== "=" && src[i + 2] !== "!" ? src.indexOf(">", i) + 1 : i + (src[i + 1] === "<" ? 3 : 2);
    } else if (c === ")") {
      const inner = stack.length > 1 ? stack.pop()! : { variable: false, alternation: false };
      i++;
      if (inner.variable) stack.at(-1)!.variable = true;
      problem = quantify(inner);
    } else if (c === "|") {
      stack.at(-1)!.alternation = true;
      i++;
    } else {
      i++;
      problem = quantify(null);
    }
    if (problem) return problem;
  }
  return wide > RULE_LIMITS.wideQuantifiers ? `at most ${RULE_LIMITS.wideQuantifiers} wide repetitions (+, *, {n,} or {n,m} with m >= 10) per pattern` : null;
}

/** The checks of one pattern on its own. */
export function patternProblem(option: string, src: string): string | null {
  if (src.length > RULE_LIMITS.patternChars) return `${option} is longer than ${RULE_LIMITS.patternChars} characters`;
  if (!src.startsWith("^") || !src.endsWith("$") || /(?:^|[^\\])(?:\\\\)*\\\$$/.test(src)) {
    return `${option} must be anchored: start with ^ and end with $ (the whole ${option.slice(2)}, not a part of it)`;
  }
  try {
    new RegExp(src);
  } catch (e) {
    return `${option} is not a valid regular expression: ${e instanceof Error ? e.message : String(e)}`;
  }
  const shape = backtrackingProblem(src);
  return shape ? `${option}: ${shape}` : null;
}

/** The chat-like samples a rule would take as a payment (whatever their app: only the shape counts). */
export function samplesMatched(rule: MessageRule, samples: ChatSample[] = CHAT_SAMPLES): ChatSample[] {
  return samples.filter((s) => matchPaymentMessage({ package_name: rule.pkg, title: s.title, msg: s.text }, [rule], []).ok);
}

/** Why the rule cannot be saved; null when it can. */
export function ruleProblem(r: RuleInput, samples: ChatSample[] = CHAT_SAMPLES): string | null {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/.test(r.name)) return "--name must be 1-40 letters, digits, '.', '_' or '-', starting with a letter or digit";
  if (!/^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+$/.test(r.pkg) || r.pkg.length > 100) {
    return "--package must be an Android package name, exactly as the forwarder sends it (e.g. com.tencent.mm)";
  }
  // An account has one of these (channel-input.ts): a rule of any other type could never pay.
  if (!isKnownPayType(r.payType)) return `--pay-type must be one of: ${PAY_TYPES.join(", ")}`;
  const bad = patternProblem("--title", r.title) ?? patternProblem("--text", r.text);
  if (bad) return bad;
  const groups = (r.title + r.text).split("(?<amount>").length - 1;
  if (groups !== 1) return `name the amount once, in --title or --text, as the group ${AMOUNT_EXAMPLE} (yuan)`;
  const rule = compileRule(r);
  const contact = CONTACT_TITLES.find((t) => new RegExp(`^(?:${r.title})$`).test(t));
  if (contact !== undefined) {
    return `--title accepts ${JSON.stringify(contact)}, a name a contact, group or lookalike can have: list the sender's exact names, e.g. ^(?:微信支付|微信收款助手)$`;
  }
  const hit = samplesMatched(rule, samples)[0];
  if (hit) {
    return `the rule takes a chat-like message the built-in formats refuse (${hit.name}: title ${JSON.stringify(hit.title)}, text ${JSON.stringify(hit.text)}); make the title and text match the whole notification of the payment sender only`;
  }
  return null;
}

// The operator's actions on message rules (`xpay rules`, and the console if it offers them):
// add (checked), test (against the stored unrecognised messages and the chat-like samples),
// remove. A change reaches a running server within a second (operator-rules.ts). Adding or
// removing a rule changes what pays, so each is audited (core/admin/audit.ts) with the rule before
// and after. A test writes nothing and changes nothing: it stays a reader (cli/database.ts READERS),
// usable on a read-only copy of the database, and is not audited.
import { type Actor, audit } from "../admin/audit.ts";
import type { Gateway } from "../gateway.ts";
import { Budget, matchPaymentMessage } from "../report-rules.ts";
import type { ChatSample } from "./chat-samples.ts";
import { type Problem, problem } from "../problem.ts";
import { compileRule, type RuleInput, ruleIssue, samplesMatched, textProblem } from "./check.ts";
import { forgetOperatorRules } from "./operator-rules.ts";
import type { StoredRule, UnparsedMessage } from "./store.ts";
import { UNPARSED_LIMITS } from "./unparsed.ts";

export type NewRule = Omit<RuleInput, "name"> & { name?: string };

/** What the audit log keeps of a rule: everything that decides what it pays. */
export const ruleView = (r: RuleInput & { disabled?: string }) => ({
  name: r.name, package: r.pkg, pay_type: r.payType, titles: r.titles, text: r.text, ...(r.disabled ? { disabled: r.disabled } : {}),
});

/** "wxpay-1", "wxpay-2", ...: the first free one. */
async function freeName(gw: Gateway, payType: string): Promise<string> {
  const taken = new Set((await gw.store.rules.listRules()).map((r) => r.name));
  let n = 1;
  while (taken.has(`${payType}-${n}`)) n++;
  return `${payType}-${n}`;
}

/** A refusal: `reason` in the CLI's English, `problem` the same as a code for the console. */
export async function addRule(gw: Gateway, actor: Actor, input: NewRule): Promise<{ ok: true; rule: StoredRule } | { ok: false; reason: string; problem: Problem }> {
  const rule = { ...input, name: input.name ?? (await freeName(gw, /^[a-z]+$/.test(input.payType) ? input.payType : "rule")) };
  const bad = ruleIssue(rule);
  if (bad) return { ok: false, reason: bad.text, problem: bad };
  const r = await gw.store.rules.addRule({ ...rule, titles: [...new Set(rule.titles)], createdAt: gw.clock.now() });
  forgetOperatorRules(gw);
  // The store refuses one thing: a rule of that name exists.
  if (r.kind !== "added") return { ok: false, reason: r.reason, problem: problem("rule.exists", r.reason, { name: rule.name }) };
  await audit(gw, { actor, action: "rule.add", target: `rule:${r.rule.name}`, before: null, after: ruleView(r.rule) });
  return { ok: true, rule: r.rule };
}

/** The removed rule; null when no rule has that name. */
export async function removeRule(gw: Gateway, actor: Actor, name: string): Promise<StoredRule | null> {
  const before = (await gw.store.rules.listRules()).find((r) => r.name === name);
  if (!before || !(await gw.store.rules.removeRule(name))) return null;
  forgetOperatorRules(gw);
  await audit(gw, { actor, action: "rule.remove", target: `rule:${name}`, before: ruleView(before), after: null });
  return before;
}

export interface RuleTest {
  /** Why `rules add` would refuse it; null when it would save. */
  problem: string | null;
  /** The same as a code (the console's). */
  issue: Problem | null;
  /** Chat-like samples the rule would take as payments (none for a rule that saves). */
  samples: ChatSample[];
  /** Stored unrecognised messages it would recognise, with the amount it reads (cents). */
  matches: { message: UnparsedMessage; amount: number | null }[];
}

/** What the rule would do, without saving it: the checks, the samples, the stored messages. */
export async function testRule(gw: Gateway, input: RuleInput, o: { pid?: number } = {}): Promise<RuleTest> {
  const issue = ruleIssue(input);
  const problem = issue?.text ?? null;
  if (input.titles.length === 0 || textProblem(input.text)) return { problem, issue, samples: [], matches: [] };
  const rule = compileRule(input);
  const stored = await gw.store.rules.listUnparsed({ pid: o.pid, limit: UNPARSED_LIMITS.total });
  const matches: RuleTest["matches"] = [];
  for (const message of stored) {
    if (message.pkg !== input.pkg) continue;
    const r = matchPaymentMessage({ package_name: message.pkg, title: message.title, msg: message.text }, [rule], [], new Budget());
    if (r.ok) matches.push({ message, amount: r.amount });
    else if (r.why.code === "invalid_amount") matches.push({ message, amount: null });
  }
  return { problem, issue, samples: samplesMatched(rule), matches };
}

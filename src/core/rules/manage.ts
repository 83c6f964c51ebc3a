// The operator's actions on message rules (`xpay rules`, and the console if it offers them):
// add (checked), test (against the stored unrecognised messages and the chat-like samples),
// remove. A change reaches a running server within a second (operator-rules.ts).
import type { Gateway } from "../gateway.ts";
import { matchPaymentMessage } from "../report-rules.ts";
import type { ChatSample } from "./chat-samples.ts";
import { compileRule, patternProblem, type RuleInput, ruleProblem, samplesMatched } from "./check.ts";
import { forgetOperatorRules } from "./operator-rules.ts";
import type { StoredRule, UnparsedMessage } from "./store.ts";
import { UNPARSED_LIMITS } from "./unparsed.ts";

export type NewRule = Omit<RuleInput, "name"> & { name?: string };

/** "wxpay-1", "wxpay-2", ...: the first free one. */
async function freeName(gw: Gateway, payType: string): Promise<string> {
  const taken = new Set((await gw.store.rules.listRules()).map((r) => r.name));
  let n = 1;
  while (taken.has(`${payType}-${n}`)) n++;
  return `${payType}-${n}`;
}

export async function addRule(gw: Gateway, input: NewRule): Promise<{ ok: true; rule: StoredRule } | { ok: false; reason: string }> {
  const rule = { ...input, name: input.name ?? (await freeName(gw, /^[a-z]+$/.test(input.payType) ? input.payType : "rule")) };
  const problem = ruleProblem(rule);
  if (problem) return { ok: false, reason: problem };
  const r = await gw.store.rules.addRule({ ...rule, createdAt: gw.clock.now() });
  forgetOperatorRules(gw);
  return r.kind === "added" ? { ok: true, rule: r.rule } : { ok: false, reason: r.reason };
}

export async function removeRule(gw: Gateway, name: string): Promise<boolean> {
  const removed = await gw.store.rules.removeRule(name);
  forgetOperatorRules(gw);
  return removed;
}

export interface RuleTest {
  /** Why `rules add` would refuse it; null when it would save. */
  problem: string | null;
  /** Chat-like samples the rule would take as payments (none for a rule that saves). */
  samples: ChatSample[];
  /** Stored unrecognised messages it would recognise, with the amount it reads (cents). */
  matches: { message: UnparsedMessage; amount: number | null }[];
}

/** What the rule would do, without saving it: the checks, the samples, the stored messages. */
export async function testRule(gw: Gateway, input: RuleInput, o: { pid?: number } = {}): Promise<RuleTest> {
  const problem = ruleProblem(input);
  if (patternProblem("--title", input.title) || patternProblem("--text", input.text)) return { problem, samples: [], matches: [] };
  const rule = compileRule(input);
  const stored = await gw.store.rules.listUnparsed({ pid: o.pid, limit: UNPARSED_LIMITS.total });
  const matches: RuleTest["matches"] = [];
  for (const message of stored) {
    if (message.pkg !== input.pkg) continue;
    const r = matchPaymentMessage({ package_name: message.pkg, title: message.title, msg: message.text }, [rule], []);
    if (r.ok) matches.push({ message, amount: r.amount });
    else if (r.reason.includes("invalid amount")) matches.push({ message, amount: null });
  }
  return { problem, samples: samplesMatched(rule), matches };
}

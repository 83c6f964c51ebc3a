// The operator's message rules as the report API applies them: after the built-in formats, read
// through a one-second cache like the settings (Gateway.settings), so `xpay rules add` beside a
// running server takes effect within a second without a read per report.
import type { Gateway } from "../gateway.ts";
import { type MessageRule, prepareTable } from "../payment-formats.ts";
import { Budget, type ForwardedMessage, type MessageParse, matchPaymentMessage } from "../report-rules.ts";
import { type Problem, problem } from "../problem.ts";
import { compileRule, ruleIssue } from "./check.ts";
import type { StoredRule } from "./store.ts";

const CACHE_MS = 1000;
const cache = new WeakMap<Gateway, { at: number; rules: MessageRule[] }>();

/** Why a stored rule does not run: disabled by migration 018, or no longer passing the checks
 * (a hand-edited row, a corpus grown since, a text the linear-time engine refuses); null when it runs. */
export function ruleStatus(r: StoredRule): string | null {
  return ruleStatusIssue(r)?.text ?? null;
}

/** ruleStatus as a code: migration 018 disables with one text, whose code this is; any other stored text is kept as it is. */
export function ruleStatusIssue(r: StoredRule): Problem | null {
  if (r.disabled) return problem(r.disabled.startsWith("its title is a pattern, not a list of names") ? "rule.disabled_pattern" : "rule.disabled", r.disabled, { text: r.disabled });
  return ruleIssue(r);
}

/** What this process has said about skipped rules: each rule's reason is logged once, not at every reload. */
const told = new WeakMap<Gateway, Set<string>>();

/** Rules that do not run are skipped, and logged (once per rule and reason). */
function usable(gw: Gateway, stored: StoredRule[]): MessageRule[] {
  const out: MessageRule[] = [];
  let said = told.get(gw);
  if (!said) told.set(gw, (said = new Set()));
  for (const r of stored) {
    const problem = ruleStatus(r);
    if (!problem) out.push(compileRule(r));
    else if (!said.has(`${r.name}\n${problem}`)) {
      said.add(`${r.name}\n${problem}`);
      gw.log.error("rules.skipped", { rule: r.name, problem });
    }
  }
  return out;
}

export async function operatorRules(gw: Gateway): Promise<MessageRule[]> {
  const now = gw.clock.nowMs();
  const hit = cache.get(gw);
  if (hit && now - hit.at < CACHE_MS) return hit.rules;
  const rules = usable(gw, await gw.store.rules.listRules());
  cache.set(gw, { at: now, rules });
  return rules;
}

/** After a change in this process (the CLI, the console): seen at once, not within the second. */
export function forgetOperatorRules(gw: Gateway): void {
  cache.delete(gw);
}

/**
 * The built-in formats first, then the operator's rules, under one time budget for the message
 * (report-rules.ts: the text capped in length, every pattern linear in it, the deadline checked
 * between rules): a stranger's message or an operator's rule can slow one report by the budget,
 * never freeze the process. `operator` says which table recognised the message.
 */
export async function recogniseMessage(gw: Gateway, m: ForwardedMessage, budget?: Budget): Promise<MessageParse & { operator: boolean }> {
  const rules = await operatorRules(gw); // first: the store's time (and compiling) is not the rules' time
  prepareTable();
  const b = budget ?? new Budget();
  const builtIn = matchPaymentMessage(m); // always whole: fixed and small; its time still counts in b
  if (builtIn.ok) return { ...builtIn, operator: false };
  const custom = rules.length === 0 || b.spent ? builtIn : matchPaymentMessage(m, rules, [], b);
  if (b.spent) gw.log.error("rules.time_bound", { budget_ms: b.ms, operator_rules: rules.length });
  if (custom.ok) return { ...custom, operator: true };
  // Past the budget the reason says so (the rules after it were not tried), not the built-ins' reason.
  return { ...(b.spent ? custom : builtIn), operator: false };
}

// The operator's message rules as the report API applies them: after the built-in formats, read
// through a one-second cache like the settings (Gateway.settings), so `xpay rules add` beside a
// running server takes effect within a second without a read per report.
import type { Gateway } from "../gateway.ts";
import type { MessageRule } from "../payment-formats.ts";
import { type ForwardedMessage, type MessageParse, matchPaymentMessage } from "../report-rules.ts";
import { compileRule, RULE_LIMITS, ruleProblem } from "./check.ts";
import type { StoredRule } from "./store.ts";

const CACHE_MS = 1000;
const cache = new WeakMap<Gateway, { at: number; rules: MessageRule[] }>();

/** Rules that no longer pass the checks (a hand-edited row, a corpus grown since) are skipped. */
function usable(gw: Gateway, stored: StoredRule[]): MessageRule[] {
  const out: MessageRule[] = [];
  for (const r of stored) {
    const problem = ruleProblem(r);
    if (problem) gw.log.error("rules.skipped", { rule: r.name, problem });
    else out.push(compileRule(r));
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
 * The built-in formats first, then the operator's rules (only on a title and text within the
 * length caps: a rule's pattern is the operator's, the text a stranger's). `operator` says which
 * table recognised the message.
 */
export async function recogniseMessage(gw: Gateway, m: ForwardedMessage): Promise<MessageParse & { operator: boolean }> {
  const builtIn = matchPaymentMessage(m);
  if (builtIn.ok) return { ...builtIn, operator: false };
  const title = m.title ?? "";
  const text = (m.msg ?? "").replace(/\s+/g, " ").trim();
  if (title.length > RULE_LIMITS.titleChars || text.length > RULE_LIMITS.textChars) return { ...builtIn, operator: false };
  const rules = await operatorRules(gw);
  if (rules.length === 0) return { ...builtIn, operator: false };
  const custom = matchPaymentMessage(m, rules, []);
  return custom.ok ? { ...custom, operator: true } : { ...builtIn, operator: false };
}

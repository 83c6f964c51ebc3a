// The operator's actions on receiving accounts, shared by `xpay channel` and the console: add or
// edit through the one account rule (channel-input.ts), remove one no order used, enable or
// disable. Each is audited (`account.*`, by the CLI as `cli`) with the fields before and after.
import { type Actor, audit } from "./admin/audit.ts";
import { type ChannelCheckOptions, type ChannelProblem, channelProblem, channelProblemText } from "./channel-input.ts";
import { refreshGroups } from "./clients/keyed.ts";
import type { Gateway } from "./gateway.ts";
import type { ChannelFields, RemoveChannelResult } from "./store.ts";
import type { ChannelAccount } from "./types.ts";

export type SaveAccountResult =
  | { kind: "saved"; account: ChannelAccount }
  | { kind: "refused"; problem: ChannelProblem; reason: string }
  | { kind: "not_found" };

/** The fields the operator sets, as the audit log shows them (amounts in cents, named so). */
export function accountView(a: ChannelAccount) {
  return {
    pid: a.pid, pay_type: a.payType, code: a.code, name: a.name, qrcode: a.qrcode, scheme: a.scheme, remark: a.remark,
    min_amount_cents: a.minAmount, max_amount_cents: a.maxAmount, day_amount_cents: a.dayAmount, sort: a.sort, enabled: a.enabled,
  };
}

/** The entries of `after` that differ from `before`, and `before`'s value of each. */
function changes<T extends Record<string, unknown>>(before: T, after: T): { before: Partial<T>; after: Partial<T> } {
  const b: Partial<T> = {};
  const a: Partial<T> = {};
  for (const k of Object.keys(after) as (keyof T)[]) {
    if (before[k] !== after[k]) {
      b[k] = before[k];
      a[k] = after[k];
    }
  }
  return { before: b, after: a };
}

const trimmed = (v: string | undefined) => v?.trim();

/** Adds (id null) or edits an account through the account rule; surrounding spaces are dropped. */
export async function saveAccount(gw: Gateway, actor: Actor, id: number | null, patch: Partial<ChannelFields>, o: ChannelCheckOptions = {}): Promise<SaveAccountResult> {
  const tidy = { ...patch, code: trimmed(patch.code), name: trimmed(patch.name), qrcode: trimmed(patch.qrcode), scheme: trimmed(patch.scheme) };
  // The rule runs inside the store's unit: keep its structured answer and the account it saw.
  const seen: { problem: ChannelProblem | null; current: ChannelAccount | null } = { problem: null, current: null };
  const r = await gw.store.saveChannel({
    id, patch: tidy, now: gw.clock.now(),
    check: (next, facts) => {
      seen.current = facts.current;
      seen.problem = channelProblem(next, facts, o);
      return seen.problem ? channelProblemText(seen.problem) : null;
    },
  });
  if (r.kind === "not_found") return r;
  if (r.kind === "refused") {
    if (!seen.problem) throw new Error(`account refused outside the rule: ${r.reason}`);
    return { kind: "refused", problem: seen.problem, reason: r.reason };
  }
  const was = seen.current;
  // Its owner or pay type may have changed who could report on it (clients/watch.ts).
  await refreshGroups(gw);
  const target = `account:${r.account.id}`;
  if (was === null) await audit(gw, { actor, action: "account.add", target, after: { id: r.account.id, ...accountView(r.account) } });
  else {
    const diff = changes(accountView(was), accountView(r.account));
    if (Object.keys(diff.after).length > 0) await audit(gw, { actor, action: "account.edit", target, ...diff });
  }
  return { kind: "saved", account: r.account };
}

export async function removeAccount(gw: Gateway, actor: Actor, id: number): Promise<RemoveChannelResult> {
  const r = await gw.store.removeChannel(id);
  if (r.kind === "removed") await refreshGroups(gw);
  if (r.kind === "removed") await audit(gw, { actor, action: "account.remove", target: `account:${id}`, before: { id, ...accountView(r.account) } });
  return r;
}

/** Enables or disables an account; null when there is none. Audited only when it changed. */
export async function setAccountEnabled(gw: Gateway, actor: Actor, id: number, enabled: boolean): Promise<ChannelAccount | null> {
  const before = await gw.store.getChannel(id);
  if (!before) return null;
  const after = await gw.store.updateChannel(id, { enabled });
  if (after && before.enabled !== enabled) {
    await audit(gw, { actor, action: enabled ? "account.enable" : "account.disable", target: `account:${id}`, before: { enabled: before.enabled }, after: { enabled } });
  }
  return after;
}

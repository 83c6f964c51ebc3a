// Operator accounts: add, change a password, remove. The CLI (`xpay admin ...`) and the console call
// these; each checks with credentials.ts, writes through Store.admin and is audited.
import type { Gateway } from "../gateway.ts";
import { type Actor, audit } from "./audit.ts";
import { hashPassword, type NameProblem, nameProblem, type PasswordProblem, passwordProblem, verifyPassword } from "./credentials.ts";
import type { Operator } from "./store.ts";

export type AddOperatorResult =
  | { kind: "added"; operator: Operator }
  | { kind: "bad_name"; problem: NameProblem }
  | { kind: "bad_password"; problem: PasswordProblem }
  | { kind: "exists" };

export async function addOperator(gw: Gateway, actor: Actor, name: string, password: string): Promise<AddOperatorResult> {
  const bad = nameProblem(name);
  if (bad) return { kind: "bad_name", problem: bad };
  const weak = passwordProblem(password, name);
  if (weak) return { kind: "bad_password", problem: weak };
  const operator = await gw.store.admin.addOperator({ name, passwordHash: await hashPassword(password), now: gw.clock.now() });
  if (!operator) return { kind: "exists" };
  await audit(gw, { actor, action: "operator.add", target: `operator:${operator.name}`, after: { name: operator.name } });
  return { kind: "added", operator };
}

export type ChangePasswordResult =
  | { kind: "changed"; revoked: number }
  | { kind: "not_found" }
  | { kind: "wrong_current" }
  | { kind: "bad_password"; problem: PasswordProblem };

/**
 * Sets a new password and ends the operator's sessions, all of them (the terminal), or all but the
 * one making the change (the console, which must also give the current password).
 */
export async function changePassword(
  gw: Gateway,
  actor: Actor,
  name: string,
  password: string,
  o: { current?: string; keepSessionId?: number } = {},
): Promise<ChangePasswordResult> {
  const operator = await gw.store.admin.findOperator(name);
  if (!operator) return { kind: "not_found" };
  if (o.current !== undefined && !(await verifyPassword(o.current, operator.passwordHash))) return { kind: "wrong_current" };
  const weak = passwordProblem(password, operator.name);
  if (weak) return { kind: "bad_password", problem: weak };
  const revoked = await gw.store.admin.setPassword(operator.id, await hashPassword(password), gw.clock.now(), o.keepSessionId);
  await audit(gw, { actor, action: "operator.password", target: `operator:${operator.name}`, after: { sessions_revoked: revoked } });
  return { kind: "changed", revoked };
}

/** Removes an operator and its sessions; null when there is none by that name. */
export async function removeOperator(gw: Gateway, actor: Actor, name: string): Promise<Operator | null> {
  const operator = await gw.store.admin.findOperator(name);
  if (!operator || !(await gw.store.admin.removeOperator(operator.id))) return null;
  const { passwordHash: _, ...shown } = operator;
  await audit(gw, { actor, action: "operator.remove", target: `operator:${operator.name}`, before: { name: operator.name, created_at: operator.createdAt, last_login_at: operator.lastLoginAt } });
  return shown;
}

// First run: while no operator exists, each `xpay serve` start issues a one-time setup token
// (stored hashed, valid 24 hours, the previous one dropped) and prints its link. The setup page
// creates the first operator with it and logs them in; that burns every token, and once an
// operator exists no token works, whatever its age.
import type { Gateway } from "../gateway.ts";
import { audit } from "./audit.ts";
import { hashPassword, type NameProblem, nameProblem, type PasswordProblem, passwordProblem } from "./credentials.ts";
import { type Client, hashToken, newToken } from "./sessions.ts";
import type { Operator, OperatorSession } from "./store.ts";

export const SETUP_TOKEN_TTL = 86400;

/** A new setup token (the caller prints the link), or null when an operator exists. */
export async function issueSetupToken(gw: Gateway): Promise<string | null> {
  if ((await gw.store.admin.countOperators()) > 0) return null;
  const token = newToken();
  const now = gw.clock.now();
  await gw.store.admin.addSetupToken(hashToken(token), now, now + SETUP_TOKEN_TTL);
  return token;
}

export async function setupTokenValid(gw: Gateway, token: string): Promise<boolean> {
  return /^[A-Za-z0-9_-]{43}$/.test(token) && (await gw.store.admin.setupTokenValid(hashToken(token), gw.clock.now()));
}

export type SetupOutcome =
  | { kind: "done"; operator: Operator; token: string; session: OperatorSession }
  | { kind: "bad_token" }
  | { kind: "operator_exists" }
  | { kind: "bad_name"; problem: NameProblem }
  | { kind: "bad_password"; problem: PasswordProblem }
  | { kind: "mismatch" };

export async function completeSetup(gw: Gateway, setupToken: string, name: string, password: string, repeat: string, client: Client): Promise<SetupOutcome> {
  if (!(await setupTokenValid(gw, setupToken))) return (await gw.store.admin.countOperators()) > 0 ? { kind: "operator_exists" } : { kind: "bad_token" };
  const badName = nameProblem(name);
  if (badName) return { kind: "bad_name", problem: badName };
  const weak = passwordProblem(password, name);
  if (weak) return { kind: "bad_password", problem: weak };
  if (password !== repeat) return { kind: "mismatch" };
  const sessionToken = newToken();
  const r = await gw.store.admin.completeSetup({
    tokenHash: hashToken(setupToken),
    now: gw.clock.now(),
    name,
    passwordHash: await hashPassword(password),
    session: { tokenHash: hashToken(sessionToken), ip: client.ip.slice(0, 64), userAgent: client.userAgent.slice(0, 300) },
  });
  if (r.kind !== "done") return r;
  const actor = { name: r.operator.name, ip: client.ip };
  await audit(gw, { actor, action: "operator.setup", target: `operator:${r.operator.name}`, after: { name: r.operator.name } });
  gw.log.event("admin.setup", { user: r.operator.name, ip: client.ip });
  return { kind: "done", operator: r.operator, token: sessionToken, session: r.session };
}

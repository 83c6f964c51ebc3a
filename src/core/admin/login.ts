// A console login: throttle per address and per user name, the password check, the session, and a
// trace of every failure in the log (never the password) and in the audit log.
import type { Gateway } from "../gateway.ts";
import { audit } from "./audit.ts";
import { verifyPassword } from "./credentials.ts";
import { type Client, startSession } from "./sessions.ts";
import type { Operator, OperatorSession } from "./store.ts";
import type { LoginThrottle } from "./throttle.ts";

export type LoginResult =
  | { kind: "ok"; operator: Operator; token: string; session: OperatorSession }
  | { kind: "throttled"; retryAfter: number }
  | { kind: "bad_credentials" };

/** Names longer than any valid one are cut before they reach a log line or a bucket key. */
const shown = (name: string) => name.slice(0, 64);

export async function login(gw: Gateway, throttle: LoginThrottle, name: string, password: string, client: Client): Promise<LoginResult> {
  const wait = throttle.take(client.ip, shown(name), gw.clock.nowMs());
  if (wait > 0) {
    gw.log.event("admin.login_throttled", { user: shown(name), ip: client.ip, retry_after: wait });
    return { kind: "throttled", retryAfter: wait };
  }
  const found = name === "" ? null : await gw.store.admin.findOperator(name);
  if (!(await verifyPassword(password, found?.passwordHash ?? null)) || !found) {
    gw.log.event("admin.login_failed", { user: shown(name), ip: client.ip });
    await audit(gw, { actor: { name: "anonymous", ip: client.ip }, action: "session.login_failed", target: `operator:${shown(name)}` });
    return { kind: "bad_credentials" };
  }
  throttle.give(client.ip, shown(name));
  const { passwordHash: _, ...operator } = found;
  const { token, session } = await startSession(gw, operator, client);
  gw.log.event("admin.login", { user: operator.name, ip: client.ip, session: session.id });
  await audit(gw, { actor: { name: operator.name, ip: client.ip }, action: "session.login", target: `session:${session.id}`, after: { user_agent: session.userAgent } });
  return { kind: "ok", operator, token, session };
}

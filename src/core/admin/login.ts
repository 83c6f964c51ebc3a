// A console login: the throttle (core/admin/throttle.ts: strangers per address and per user name,
// known browsers per browser, counted in the store), the password check in its lane of the
// password queue (core/admin/hash-slots.ts: known browsers first, strangers bounded), the session.
// A failure is a log line (never the password) and a count in login_failures, not an audit row:
// a flood must not grow the audit log, and the counters are the summary the operator reads.
import type { Gateway } from "../gateway.ts";
import { audit } from "./audit.ts";
import { verifyLogin } from "./credentials.ts";
import { BUSY, passwordSlots } from "./hash-slots.ts";
import { type Client, startSession } from "./sessions.ts";
import type { Operator, OperatorSession } from "./store.ts";
import { attemptNotChecked, attemptRefused, attemptSucceeded, takeAttempt, type Who } from "./throttle.ts";

export type LoginResult =
  | { kind: "ok"; operator: Operator; token: string; session: OperatorSession; known: boolean }
  | { kind: "throttled"; retryAfter: number }
  | { kind: "busy"; retryAfter: number }
  | { kind: "bad_credentials" };

/** A browser the edge recognised (its signed device cookie, or a live session): whose, and its key. */
export interface KnownBrowser {
  operatorId: number;
  key: string;
}

export interface LoginClient extends Client {
  known?: KnownBrowser | null;
}

/** Seconds a stranger turned away by a full password queue is told to wait: it drains in about one. */
export const BUSY_RETRY = 2;

/** Names longer than any valid one are cut before they reach a log line or a counter. */
const shown = (name: string) => name.slice(0, 64);

export async function login(gw: Gateway, name: string, password: string, client: LoginClient): Promise<LoginResult> {
  const found = name === "" ? null : await gw.store.admin.findOperator(name);
  // A browser counts as known only for the operator it logged in as.
  const device = found && client.known && client.known.operatorId === found.id ? client.known.key : "";
  const who: Who = { user: shown(name).toLowerCase(), ip: client.ip.slice(0, 64), device };
  const busy = async (): Promise<LoginResult> => {
    gw.log.event("admin.login_busy", { user: shown(name), ip: client.ip });
    return { kind: "busy", retryAfter: BUSY_RETRY };
  };
  if (device === "" && passwordSlots.full()) {
    await attemptRefused(gw, who); // at once, before any count or check: the queue is the bound
    return busy();
  }
  const take = await takeAttempt(gw, who);
  if (take.key === null) {
    gw.log.event("admin.login_throttled", { user: shown(name), ip: client.ip, retry_after: take.wait, known: device !== "" });
    return { kind: "throttled", retryAfter: take.wait };
  }
  const right = await verifyLogin(password, found?.passwordHash ?? null, device !== "");
  if (right === BUSY) {
    await attemptNotChecked(gw, take.key);
    return busy();
  }
  if (!right || !found) {
    gw.log.event("admin.login_failed", { user: shown(name), ip: client.ip, known: device !== "" });
    return { kind: "bad_credentials" };
  }
  await attemptSucceeded(gw, take.key);
  const { passwordHash: _, ...operator } = found;
  const { token, session } = await startSession(gw, operator, client);
  gw.log.event("admin.login", { user: operator.name, ip: client.ip, session: session.id });
  await audit(gw, { actor: { name: operator.name, ip: client.ip }, action: "session.login", target: `session:${session.id}`, after: { user_agent: session.userAgent } });
  return { kind: "ok", operator, token, session, known: device !== "" };
}

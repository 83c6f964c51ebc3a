// Console sessions. The cookie carries 32 random bytes; the database keeps only their SHA-256, so
// a copied database (a backup, a stolen file) opens no session. The CSRF token is an HMAC of the
// cookie token: nothing more to store, and it changes with every login. A session ends when idle
// longer than admin_session_idle or older than admin_session_max, whichever comes first.
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Gateway } from "../gateway.ts";
import { type Actor, audit } from "./audit.ts";
import type { LiveWindow, Operator, OperatorSession } from "./store.ts";

/** last_used_at is written at most once a minute per session, not on every request. */
export const TOUCH_EVERY = 60;

export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function csrfToken(sessionToken: string): string {
  return createHmac("sha256", sessionToken).update("xpay console csrf").digest("base64url");
}

/** Constant-time equality of two strings (length compared first; lengths are not secret). */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export interface SessionLimits {
  idle: number;
  max: number;
}

export async function sessionLimits(gw: Gateway): Promise<SessionLimits> {
  const s = await gw.settings();
  return { idle: s.int("admin_session_idle"), max: s.int("admin_session_max") };
}

export function liveWindow(now: number, l: SessionLimits): LiveWindow {
  return { lastUsedAfter: now - l.idle, createdAfter: now - l.max };
}

export function sessionLive(s: Pick<OperatorSession, "createdAt" | "lastUsedAt">, now: number, l: SessionLimits): boolean {
  return now - s.lastUsedAt < l.idle && now - s.createdAt < l.max;
}

export interface Client {
  ip: string;
  userAgent: string;
}

const clientFields = (c: Client) => ({ ip: c.ip.slice(0, 64), userAgent: c.userAgent.slice(0, 300) });

/** Opens a session for an operator whose password was checked; returns the cookie token. */
export async function startSession(gw: Gateway, operator: Operator, client: Client): Promise<{ token: string; session: OperatorSession }> {
  const now = gw.clock.now();
  // Expired rows go at each login: the table holds live sessions and the few that ended since.
  await gw.store.admin.pruneSessions(liveWindow(now, await sessionLimits(gw)));
  const token = newToken();
  const session = await gw.store.admin.createSession({ operatorId: operator.id, tokenHash: hashToken(token), now, ...clientFields(client) });
  return { token, session };
}

/**
 * The live session of a cookie token, or null (unknown, revoked, expired: an expired row is
 * deleted). Stamps last use (and the address) at most once a minute.
 */
export async function resumeSession(gw: Gateway, token: string, ip: string): Promise<OperatorSession | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const session = await gw.store.admin.findSession(hashToken(token));
  if (!session) return null;
  const now = gw.clock.now();
  if (!sessionLive(session, now, await sessionLimits(gw))) {
    await gw.store.admin.deleteSession(session.id);
    return null;
  }
  if (now - session.lastUsedAt >= TOUCH_EVERY || session.lastIp !== ip.slice(0, 64)) {
    await gw.store.admin.touchSession(session.id, now, ip.slice(0, 64));
    return { ...session, lastUsedAt: now, lastIp: ip.slice(0, 64) };
  }
  return session;
}

/** The live sessions, of one operator or of all, most recently used first. */
export async function liveSessions(gw: Gateway, operatorId?: number): Promise<OperatorSession[]> {
  return gw.store.admin.listSessions({ operatorId, live: liveWindow(gw.clock.now(), await sessionLimits(gw)) });
}

/** The operator's own logout: this session ends. Audited. */
export async function logout(gw: Gateway, actor: Actor, sessionId: number): Promise<void> {
  await gw.store.admin.deleteSession(sessionId);
  await audit(gw, { actor, action: "session.logout", target: `session:${sessionId}` });
}

/** Ends one session; with `ownerId`, only one of that operator's. Audited. */
export async function revokeSession(gw: Gateway, actor: Actor, sessionId: number, ownerId?: number): Promise<boolean> {
  const gone = await gw.store.admin.deleteSession(sessionId, ownerId);
  if (gone) await audit(gw, { actor, action: "session.revoke", target: `session:${sessionId}` });
  return gone;
}

/** Ends every session of an operator but `exceptId` ("log out everywhere"). Audited. */
export async function revokeAllSessions(gw: Gateway, actor: Actor, operator: Pick<Operator, "id" | "name">, exceptId?: number): Promise<number> {
  const n = await gw.store.admin.deleteSessions(operator.id, exceptId);
  await audit(gw, { actor, action: "session.revoke_all", target: `operator:${operator.name}`, after: { revoked: n, kept_current: exceptId !== undefined } });
  return n;
}

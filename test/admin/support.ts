// Console test support: a harness (test/helpers.ts) with one operator logged in, and request helpers
// that send what a browser on the console sends: the session cookie, the same-site Origin and the
// CSRF token. Every option can be taken away to test the refusal, e.g. post(path, form, { csrf: null }).
import { CLI_ACTOR } from "../../src/core/admin/audit.ts";
import { addOperator } from "../../src/core/admin/operators.ts";
import { csrfToken, startSession } from "../../src/core/admin/sessions.ts";
import type { Operator } from "../../src/core/admin/store.ts";
import { SESSION_COOKIE } from "../../src/admin/guard.ts";
import { join } from "node:path";
import { rmSync } from "node:fs";
import { ManualClock } from "../../src/core/clock.ts";
import { buildApp } from "../../src/server/app.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import { BASE, type Harness, harness, tempDir } from "../helpers.ts";

/** Requests go to this origin (app.handle needs an absolute URL; nothing listens on it). */
export const ORIGIN = "http://localhost";
export const PASSWORD = "correct horse battery";

export interface Login {
  cookie: string;
  csrf: string;
  sessionId: number;
}

export interface RequestOptions {
  /** The Cookie header; default the harness operator's session; null: none. */
  cookie?: string | null;
  /** Origin header; default ORIGIN; null: none. */
  origin?: string | null;
  headers?: Record<string, string>;
}

export interface PostOptions extends RequestOptions {
  /** The `_csrf` field; default the session's token; null: left out. */
  csrf?: string | null;
}

export interface AdminHarness extends Harness {
  operator: Operator;
  /** The logged-in operator's session. */
  login: Login;
  /** Opens another session for an operator (no throttle, no audit row): a second browser. */
  session(operator?: Operator): Promise<Login>;
  get(path: string, o?: RequestOptions): Promise<Response>;
  /** `form`: fields by name, or [name, value] pairs when a name repeats (checkboxes). */
  post(path: string, form?: Record<string, string> | [string, string][], o?: PostOptions): Promise<Response>;
  /** Adds an operator (through the CLI's core function) with PASSWORD unless given. */
  addOperator(name: string, password?: string): Promise<Operator>;
}

/** test/helpers.ts's harness, or the same with the gateway behind `trustProxy` proxies. */
function baseHarness(trustProxy?: number): Harness {
  if (trustProxy === undefined) return harness();
  const dir = tempDir();
  const dbPath = join(dir, "xpay.db");
  const clock = new ManualClock();
  const gw = openGateway({ db: dbPath, baseUrl: BASE, clock, trustProxy });
  return { gw, app: buildApp(gw), clock, dir, dbPath, close: () => (gw.store.close(), rmSync(dir, { recursive: true, force: true })) };
}

export async function adminHarness(o: { name?: string; trustProxy?: number } = {}): Promise<AdminHarness> {
  const h = baseHarness(o.trustProxy);
  const add = async (name: string, password = PASSWORD) => {
    const r = await addOperator(h.gw, CLI_ACTOR, name, password);
    if (r.kind !== "added") throw new Error(`addOperator ${name}: ${r.kind}`);
    return r.operator;
  };
  const operator = await add(o.name ?? "alice");
  const session = async (who: Operator = operator): Promise<Login> => {
    const { token, session } = await startSession(h.gw, who, { ip: "", userAgent: "bun-test" });
    return { cookie: `${SESSION_COOKIE}=${token}`, csrf: csrfToken(token), sessionId: session.id };
  };
  const login = await session();
  const headersOf = (r: RequestOptions, extra: Record<string, string> = {}) => {
    const headers: Record<string, string> = { ...extra, ...r.headers };
    const cookie = r.cookie === undefined ? login.cookie : r.cookie;
    if (cookie !== null) headers.cookie = cookie;
    const origin = r.origin === undefined ? ORIGIN : r.origin;
    if (origin !== null) headers.origin = origin;
    return headers;
  };
  return {
    ...h,
    operator,
    login,
    session,
    addOperator: add,
    get: (path, r = {}) => h.app.handle(new Request(`${ORIGIN}${path}`, { headers: headersOf({ origin: null, ...r }) })),
    post: (path, form = {}, r = {}) => {
      const body = new URLSearchParams(form);
      const csrf = r.csrf === undefined ? login.csrf : r.csrf;
      if (csrf !== null && !body.has("_csrf")) body.set("_csrf", csrf);
      return h.app.handle(
        new Request(`${ORIGIN}${path}`, { method: "POST", headers: headersOf(r, { "content-type": "application/x-www-form-urlencoded" }), body: body.toString() }),
      );
    },
  };
}

/** The session cookie a response sets (the token), or undefined. */
export function sessionCookieOf(res: Response): string | undefined {
  for (const c of res.headers.getSetCookie()) {
    const m = c.match(new RegExp(`^${SESSION_COOKIE}=([^;]*)`));
    if (m) return m[1];
  }
  return undefined;
}

/** Every audit row, oldest first. */
export async function auditRows(h: Harness) {
  return (await h.gw.store.admin.listAudit({ limit: 1000 })).reverse();
}

/** The device cookie (`xpay_device=...`, ready for a Cookie header) a login response sets, or undefined. */
export function deviceCookieOf(res: Response): string | undefined {
  return res.headers.getSetCookie().find((c) => c.startsWith("xpay_device="))?.split(";")[0];
}

/**
 * Logs in the way a browser does: GET the login page (its pre-session cookie and form token), then
 * POST the form. Answers the POST; `ip` is sent as X-Forwarded-For (counts only behind trustProxy);
 * `cookie` is what else the browser holds (its device cookie, a session cookie).
 */
export async function loginForm(h: Pick<Harness, "app">, user: string, password: string, o: { ip?: string; next?: string; cookie?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = o.ip ? { "x-forwarded-for": o.ip } : {};
  const page = await h.app.handle(new Request(`${ORIGIN}/admin/login`, { headers }));
  const pre = page.headers.getSetCookie().find((c) => c.startsWith("xpay_pre="))!.split(";")[0]!;
  const token = (await page.text()).match(/name="_csrf" value="([^"]+)"/)![1]!;
  const body = new URLSearchParams({ _csrf: token, user, password, next: o.next ?? "/admin" });
  const cookie = o.cookie ? `${pre}; ${o.cookie}` : pre;
  return h.app.handle(
    new Request(`${ORIGIN}/admin/login`, { method: "POST", headers: { ...headers, cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" }, body: body.toString() }),
  );
}

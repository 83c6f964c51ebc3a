// What a console page is given and what it declares. A page module exports an AdminPage (its nav
// entry and its routes) and is listed once in pages/index.ts; the plugin (plugin.ts) checks origin,
// session and CSRF before any handler runs, so a handler only ever sees an authorised request.
import type { Actor } from "../core/admin/audit.ts";
import type { Operator, OperatorSession } from "../core/admin/store.ts";
import type { Gateway } from "../core/gateway.ts";
import type { Lang, TextKey, Translate } from "./i18n/index.ts";

/** What every console request has, logged in or not. */
export interface PublicContext {
  gw: Gateway;
  request: Request;
  url: URL;
  /** Route parameters (`/admin/orders/:trade_no` -> params.trade_no). */
  params: Record<string, string>;
  query: URLSearchParams;
  /** The urlencoded body of a POST (empty for GET), read once by the plugin. */
  form: URLSearchParams;
  /** The client's address (the trusted proxy's X-Forwarded-For entry behind --trust-proxy). */
  ip: string;
  userAgent: string;
  lang: Lang;
  t: Translate;
  /** The `timezone` setting: show every time in it. */
  tz: string;
  /** The request came from htmx (HX-Request): answer a fragment, not a whole page. */
  htmx: boolean;
  /** https (directly or per the trusted proxy): cookies get `Secure`. */
  secure: boolean;
  /**
   * Lets this answer's connection go `seconds` (at most 255; 0: no limit) without a byte written
   * before the server closes it, instead of Bun's 10 s: for a long streamed answer read by a slow
   * client. Does nothing outside a Bun server (app.handle in tests).
   */
  idleTimeout(seconds: number): void;
}

/** What a logged-in request adds. */
export interface AdminContext extends PublicContext {
  operator: Pick<Operator, "id" | "name">;
  session: OperatorSession;
  /** This session's CSRF token: forms carry it as `_csrf`, htmx sends it as X-CSRF-Token. */
  csrf: string;
  /** The audit log's "who": the operator's name and address. */
  actor: Actor;
  nav: readonly NavItem[];
}

export type Handler<C> = (ctx: C) => Response | Promise<Response>;

export type AdminRoute =
  | { method: "GET" | "POST"; path: string; public?: false; handle: Handler<AdminContext> }
  /** No session needed: login, setup, the language switch. POSTs are still Origin-checked. */
  | { method: "GET" | "POST"; path: string; public: true; handle: Handler<PublicContext> };

export interface NavItem {
  /** Where the entry links; it is marked current on this path and every path below it. */
  path: string;
  label: TextKey;
  /** Position in the menu: dashboard 10, orders 20, reports 30, merchants 40, accounts 50, clients 60, settings 70, audit 80, sessions 90. */
  order: number;
}

export interface AdminPage {
  nav?: NavItem;
  routes: AdminRoute[];
}

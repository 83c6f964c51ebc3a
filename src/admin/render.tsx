/** @jsxImportSource @kitajs/html */
// From JSX to a Response with the console's headers. Pages call page(ctx, ...) for a whole page,
// fragment(...) for an htmx swap, and the error answers below for refusals.
import { type Children, escapeHtml } from "@kitajs/html";
import { fragmentResponse, htmlResponse } from "./http.ts";
import type { AdminContext, PublicContext } from "./context.ts";
import { Bare, Shell, type ShellProps } from "./layout.tsx";

/** A whole logged-in page; `status` 422 for a form re-shown with its inline errors. */
export function page(ctx: AdminContext, o: Omit<ShellProps, "ctx"> & { status?: number; headers?: Record<string, string> }): Response {
  return htmlResponse((<Shell ctx={ctx} title={o.title} scripts={o.scripts} styles={o.styles}>{o.children}</Shell>) as string, o.status, o.headers);
}

/** A login-free page (login, setup, errors before a session). */
export function barePage(ctx: PublicContext, o: { title: string; children?: Children; status?: number; headers?: Record<string, string> }): Response {
  return htmlResponse((<Bare ctx={ctx} title={o.title}>{o.children}</Bare>) as string, o.status, o.headers);
}

/** An htmx swap: just the element, same headers. */
export function fragment(body: JSX.Element, status = 200, headers: Record<string, string> = {}): Response {
  return fragmentResponse(body as string, status, headers);
}

/** A logged-in request (the guard has set its session): an error page for it keeps the menu. */
const loggedIn = (ctx: PublicContext): ctx is AdminContext => "operator" in ctx && "nav" in ctx && "csrf" in ctx;

/** A refusal or error the browser shows: a short page (or, for htmx, just the message); with the menu for an operator. */
export function errorAnswer(ctx: PublicContext, status: number, message: string, headers: Record<string, string> = {}): Response {
  if (ctx.htmx) return fragmentResponse(`<p class="notice notice-error" role="alert">${escapeHtml(message)}</p>`, status, headers);
  const children = (
    <div class="card" id="error-page">
      <h1 safe>{message}</h1>
      <p>
        <a href="/admin" safe>{ctx.t("error.back_home")}</a>
      </p>
    </div>
  );
  if (loggedIn(ctx)) return page(ctx, { title: String(status), status, headers, children });
  return barePage(ctx, { title: String(status), status, headers, children });
}

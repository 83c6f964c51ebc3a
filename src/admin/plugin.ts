// The operator console as one Elysia plugin under /admin: its assets, every page's routes (each
// behind the guard), and a console-styled 404 for any other /admin path. `xpay serve` mounts it on
// the main listener, on a listener of its own (--admin-host/--admin-port), or not at all (--no-admin).
import { Elysia } from "elysia";
import type { Gateway } from "../core/gateway.ts";
import { findAsset } from "./assets.ts";
import type { AdminPage, AdminRoute, NavItem } from "./context.ts";
import { consoleEnabled, notFoundLikeMain, runRoute } from "./guard.ts";
import { withConsoleHeaders } from "./http.ts";
import { PAGES } from "./pages/index.ts";
import { errorAnswer } from "./render.tsx";

const raw = { parse: "none" as const };

/** The menu: every page that declares an entry, in its order. */
export function navOf(pages: readonly AdminPage[]): NavItem[] {
  return pages.flatMap((p) => (p.nav ? [p.nav] : [])).sort((a, b) => a.order - b.order);
}

async function asset(gw: Gateway, file: string): Promise<Response> {
  if (!(await consoleEnabled(gw))) return notFoundLikeMain();
  const a = findAsset(file);
  if (!a) return withConsoleHeaders(new Response("not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } }));
  return withConsoleHeaders(new Response(a.body, { headers: { "content-type": a.type } }), "immutable");
}

/** Any other /admin path: 404 for a logged-in operator, the login page for anyone else. */
const notFound: AdminRoute = { method: "GET", path: "/admin/*", handle: (ctx) => errorAnswer(ctx, 404, ctx.t("error.not_found")) };

export function adminPlugin(gw: Gateway, pages: readonly AdminPage[] = PAGES) {
  const nav = navOf(pages);
  const app = new Elysia({ name: "xpay-admin" }).get("/admin/assets/:file", ({ params }) => asset(gw, params.file), raw);
  for (const route of [...pages.flatMap((p) => p.routes), notFound, { ...notFound, method: "POST" } as AdminRoute]) {
    app.route(route.method, route.path, ({ request, params, server }) => runRoute(gw, nav, route, request, (params ?? {}) as Record<string, string>, server), raw);
  }
  return app;
}

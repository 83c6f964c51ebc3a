/** @jsxImportSource @kitajs/html */
// The console's page frames: the logged-in shell (top bar, side navigation, content) and the bare
// frame of the login and first-run pages. Both load only files from /admin/assets (the CSP allows
// nothing inline) and configure htmx by <meta>, so htmx injects no inline style and evaluates nothing.
import type { Children } from "@kitajs/html";
import { type AssetName, assetUrl } from "./assets.ts";
import type { AdminContext, PublicContext } from "./context.ts";

const HTMX_CONFIG = JSON.stringify({
  includeIndicatorStyles: false,
  allowEval: false,
  allowScriptTags: false,
  selfRequestsOnly: true,
  historyCacheSize: 0,
  // htmx copies these from an element to its swapped-in twin; `style` would be an inline style the CSP blocks.
  attributesToSettle: ["class", "width", "height"],
  // A form answered 422 (inline errors) is swapped in like a 200; other 4xx/5xx are errors (console.js says so).
  responseHandling: [
    { code: "204", swap: false },
    { code: "[23]..", swap: true },
    { code: "422", swap: true },
    { code: "[45]..", swap: false, error: true },
  ],
});

function Head(props: { title: string; styles?: AssetName[]; scripts?: AssetName[] }) {
  return (
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="robots" content="noindex, nofollow" />
      <meta name="htmx-config" content={HTMX_CONFIG} />
      <title safe>{props.title}</title>
      <link rel="icon" href="/favicon.ico" />
      <link rel="stylesheet" href={assetUrl("console.css")} />
      {(props.styles ?? []).map((s) => <link rel="stylesheet" href={assetUrl(s)} />)}
      <script src={assetUrl("htmx")} defer></script>
      <script src={assetUrl("console.js")} defer></script>
      {(props.scripts ?? []).map((s) => <script src={assetUrl(s)} defer></script>)}
    </head>
  );
}

/** The nav entry for `path`: the dashboard only on /admin itself, the others on their whole subtree. */
function isCurrent(item: string, path: string): boolean {
  if (item === "/admin") return path === "/admin" || path === "/admin/";
  return path === item || path.startsWith(`${item}/`);
}

function langLink(ctx: PublicContext): string {
  const other = ctx.lang === "zh" ? "en" : "zh";
  return `/admin/lang/${other}?next=${encodeURIComponent(ctx.url.pathname + ctx.url.search)}`;
}

export interface ShellProps {
  ctx: AdminContext;
  title: string;
  children?: Children;
  /** Extra assets a page needs (uplot, jsqr); htmx and console.js are always there. */
  scripts?: AssetName[];
  styles?: AssetName[];
}

export function Shell(props: ShellProps) {
  const { ctx } = props;
  const path = ctx.url.pathname;
  return (
    <html lang={ctx.lang === "zh" ? "zh-CN" : "en"}>
      <Head title={`${props.title} · ${ctx.t("app.name")}`} scripts={props.scripts} styles={props.styles} />
      <body data-request-failed={ctx.t("app.request_failed")} hx-headers={JSON.stringify({ "X-CSRF-Token": ctx.csrf })}>
        <a class="skip" href="#main" safe>{ctx.t("app.skip")}</a>
        <header class="topbar">
          <a class="brand" href="/admin">
            <span class="brand-mark">x</span>
            <span safe>{ctx.t("app.name")}</span>
          </a>
          <div class="topbar-right">
            <span class="who">
              <span safe>{ctx.t("app.signed_in_as")}</span> <strong safe>{ctx.operator.name}</strong>
            </span>
            <a href={langLink(ctx)} id="lang-switch" safe>{ctx.t("app.lang_switch")}</a>
            <form method="post" action="/admin/logout">
              <input type="hidden" name="_csrf" value={ctx.csrf} />
              <button class="btn btn-small" type="submit" id="logout" safe>{ctx.t("app.logout")}</button>
            </form>
          </div>
        </header>
        <div class="shell">
          <nav class="sidenav" aria-label={ctx.t("app.menu")}>
            <ul>
              {ctx.nav.map((item) => (
                <li>
                  <a href={item.path} aria-current={isCurrent(item.path, path) ? "page" : undefined} safe>{ctx.t(item.label)}</a>
                </li>
              ))}
            </ul>
          </nav>
          <main id="main" class="content">
            {props.children}
          </main>
        </div>
        <div id="flash" class="flash" role="status" aria-live="polite" hidden></div>
      </body>
    </html>
  );
}

/** Login and first run: a centred card, no navigation, the language switch under it. */
export function Bare(props: { ctx: PublicContext; title: string; children?: Children }) {
  const { ctx } = props;
  return (
    <html lang={ctx.lang === "zh" ? "zh-CN" : "en"}>
      <Head title={`${props.title} · ${ctx.t("app.name")}`} />
      <body class="auth-body" data-request-failed={ctx.t("app.request_failed")}>
        <main class="auth" id="main">
          <div class="brand">
            <span class="brand-mark">x</span>
            <span safe>{ctx.t("app.name")}</span>
          </div>
          {props.children}
          <div class="auth-foot">
            <span>xpay</span>
            <a href={langLink(ctx)} id="lang-switch" safe>{ctx.t("app.lang_switch")}</a>
          </div>
        </main>
        <div id="flash" class="flash" role="status" aria-live="polite" hidden></div>
      </body>
    </html>
  );
}

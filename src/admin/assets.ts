// The console's static files, embedded in the executable (imported as text) and served under
// /admin/assets/<name>.<hash>.<ext>: the hash of the content is in the name, so a browser may keep
// each one for a year and a new release is fetched at once. No CDN: the console works offline.
import { createHash } from "node:crypto";
import htmx from "htmx.org/dist/htmx.min.js" with { type: "text" };
import jsqr from "jsqr/dist/jsQR.js" with { type: "text" };
import uplotCss from "uplot/dist/uPlot.min.css" with { type: "text" };
import uplot from "uplot/dist/uPlot.iife.min.js" with { type: "text" };
import clientsCss from "./assets/clients.css" with { type: "text" };
import consoleCss from "./assets/console.css" with { type: "text" };
import consoleJs from "./assets/console.js" with { type: "text" };
import accountsJs from "./assets/accounts.js" with { type: "text" };
import dashboardCss from "./assets/dashboard.css" with { type: "text" };
import dashboardJs from "./assets/dashboard.js" with { type: "text" };
import manageCss from "./assets/manage.css" with { type: "text" };
import ordersCss from "./assets/orders.css" with { type: "text" };
import ordersJs from "./assets/orders.js" with { type: "text" };

export interface Asset {
  /** The name pages use: "htmx", "console.css", ... */
  name: string;
  /** The file name served, with the content hash: "htmx.3f2a9c01d4.js". */
  file: string;
  body: string;
  type: string;
}

function asset<N extends string>(name: N, ext: "js" | "css", body: string): Asset & { name: N } {
  const hash = createHash("sha256").update(body).digest("hex").slice(0, 10);
  const stem = name.replace(/\.(js|css)$/, "");
  return { name, file: `${stem}.${hash}.${ext}`, body, type: ext === "js" ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8" };
}

const LIST = [
  asset("console.css", "css", consoleCss),
  asset("console.js", "js", consoleJs),
  asset("htmx", "js", htmx),
  asset("uplot", "js", uplot),
  asset("uplot.css", "css", uplotCss),
  asset("jsqr", "js", jsqr),
  asset("clients.css", "css", clientsCss),
  asset("orders.css", "css", ordersCss),
  asset("orders.js", "js", ordersJs),
  asset("manage.css", "css", manageCss),
  asset("accounts.js", "js", accountsJs),
  asset("dashboard.js", "js", dashboardJs),
  asset("dashboard.css", "css", dashboardCss),
] as const;

export type AssetName = (typeof LIST)[number]["name"];

const BY_NAME = new Map<string, Asset>(LIST.map((a) => [a.name, a]));
const BY_FILE = new Map<string, Asset>(LIST.map((a) => [a.file, a]));

/** The URL a page links: /admin/assets/htmx.<hash>.js. */
export function assetUrl(name: AssetName): string {
  return `/admin/assets/${BY_NAME.get(name)!.file}`;
}

export function findAsset(file: string): Asset | undefined {
  return BY_FILE.get(file);
}

export const ASSETS: readonly Asset[] = LIST;

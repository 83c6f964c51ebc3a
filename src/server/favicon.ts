// GET /favicon.ico: the tab icon of the console and the cashier page (and of any page a browser
// opens on the gateway: it asks for /favicon.ico on its own). The .ico is a committed asset
// (drawn by scripts/gen-favicon.ts), embedded by `bun build --compile` through the file import,
// so the binary serves it with nothing beside it. Mounted outside the payer rate limit: static
// bytes, fetched by every tab, cheaper than counting them.
import { Elysia } from "elysia";
import icoPath from "./favicon.ico" with { type: "file" };

export const FAVICON_PATH = "/favicon.ico";
let bytes: Uint8Array<ArrayBuffer> | undefined;

async function icon(): Promise<Uint8Array<ArrayBuffer>> {
  bytes ??= new Uint8Array(await Bun.file(icoPath).arrayBuffer());
  return bytes;
}

export async function faviconResponse(): Promise<Response> {
  return new Response(await icon(), {
    headers: {
      "content-type": "image/x-icon",
      // The same for everyone and rarely changed: kept a day, like the pay-type icons.
      "cache-control": "public, max-age=86400",
      "x-content-type-options": "nosniff",
    },
  });
}

export function faviconPlugin() {
  return new Elysia({ name: "xpay-favicon" }).get(FAVICON_PATH, () => faviconResponse(), { detail: { summary: "Tab icon", hide: true } });
}

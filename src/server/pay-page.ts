// GET /pay/:trade_no: the hosted cashier page every family redirects the payer to. The page is a
// shell; its script reads the order through the template API, so one URL serves every state.
import { randomBytes } from "node:crypto";
import { Elysia } from "elysia";
import type { Gateway } from "../core/gateway.ts";
import { html } from "../protocols/http.ts";
import { renderCashierPage } from "./cashier/page.ts";

const TRADE_NO = /^[0-9A-Za-z_-]{1,64}$/;

/**
 * A strict policy: only the page's own inline style and script (by nonce) run, API calls stay on
 * this origin. Images and audio may come from elsewhere because the QR URL is built from the
 * configured base URL (which can differ from the host the payer used behind a proxy) and
 * audio_url may name a TTS service.
 */
function policy(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "img-src * data:",
    "media-src *",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

function headers(res: Response, nonce: string | null): Response {
  res.headers.set("cache-control", "no-store");
  res.headers.set("x-content-type-options", "nosniff");
  res.headers.set("referrer-policy", "no-referrer");
  if (nonce) res.headers.set("content-security-policy", policy(nonce));
  return res;
}

function notFoundPage(): Response {
  return html(
    `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
      `<meta name="robots" content="noindex"><title>订单不存在</title><style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;` +
      `padding:0 1rem;color:#333;text-align:center}h1{font-size:1.25rem}</style></head><body><h1 id="state">订单不存在</h1>` +
      `<p>请检查支付链接是否完整，或返回商户重新下单。</p></body></html>`,
    404,
  );
}

/** The path part of the base URL, so the page's API calls work when xpay is mounted below /. */
export function basePathOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).pathname.replace(/\/+$/, "");
  } catch {
    return "";
  }
}

export async function payPage(gw: Gateway, tradeNo: string): Promise<Response> {
  const order = TRADE_NO.test(tradeNo) ? await gw.store.getOrder(tradeNo) : null;
  if (!order) return headers(notFoundPage(), null);
  const nonce = randomBytes(16).toString("base64");
  const title = `收银台 - ${order.name}`.slice(0, 80);
  return headers(html(renderCashierPage({ tradeNo: order.tradeNo, basePath: basePathOf(gw.baseUrl), title, nonce })), nonce);
}

export function payPagePlugin(gw: Gateway) {
  return new Elysia({ name: "xpay-pay-page" }).get("/pay/:trade_no", ({ params }) => payPage(gw, params.trade_no), {
    detail: { summary: "Hosted cashier page" },
  });
}


// Every answer of `xpay dev` says it is test mode, so nobody mistakes it for a production gateway:
// a header on every response (APIs, errors, /healthz, pages), and on every HTML page a banner at
// the top of the body. The cashier page (/pay/{trade_no}) also gets the simulate panel. This runs
// on the finished response, after the app: pages are marked whichever plugin made them (the cashier,
// error pages, the operator console), and `xpay serve` never passes through here.
import { escapeHtml } from "../../protocols/http.ts";
import { TEST_MODE_HEADER, TEST_MODE_VALUE } from "../../core/dev/mode.ts";
import css from "./panel.css" with { type: "text" };
import js from "./panel.js" with { type: "text" };
import { allowInlineStyle, policyNonce } from "./policy.ts";

export { policyNonce };

export const BANNER_ID = "xpay-test-mode";
const BANNER_TEXT = "测试模式 TEST MODE · xpay dev：付款均为模拟，不涉及真实资金";

const attr = (nonce: string | null) => (nonce ? ` nonce="${escapeHtml(nonce)}"` : "");

function banner(styleNonce: string | null): string {
  return `<style${attr(styleNonce)}>${css}</style><div id="${BANNER_ID}" class="xpay-test-banner" role="note">${BANNER_TEXT}</div>`;
}

function panel(): string {
  return (
    `<section id="xpay-dev-panel" class="xpay-dev-panel" aria-label="测试模式：模拟付款">` +
    `<p class="xpay-dev-title">测试模式 · 模拟付款（仅 xpay dev）</p>` +
    `<div class="xpay-dev-buttons">` +
    `<button type="button" data-dev-action="pay">模拟支付成功</button>` +
    `<button type="button" data-dev-action="expire">让订单过期</button>` +
    `<button type="button" data-dev-action="fail">模拟失败</button></div>` +
    `<p id="xpay-dev-result" class="xpay-dev-result" role="status" aria-live="polite"></p>` +
    `<p class="xpay-dev-note">模拟失败 = 付款人多付 ¥0.01：报告与订单不符，不会支付，商户不会收到通知，订单到期后超时。</p>` +
    `</section>`
  );
}

function panelScript(scriptNonce: string | null): string {
  return `<script${attr(scriptNonce)}>${js.replace(/<\/(script)/gi, "<\\/$1")}</script>`;
}

const insertBefore = (page: string, tag: string, text: string) => {
  const at = page.lastIndexOf(tag);
  return at < 0 ? page : page.slice(0, at) + text + page.slice(at);
};

/**
 * The page with the banner after <body>; on the cashier page (the one with the boot data) the
 * panel at the end of its card (</main>), below the order number, and its script before </body>.
 * `styleNonce` is the one allowInlineStyle chose for the page's policy.
 */
export function markPage(html: string, policy: string | null, styleNonce: string | null): string {
  const open = /<body\b[^>]*>/i.exec(html);
  if (!open) return html;
  const at = open.index + open[0].length;
  let page = html.slice(0, at) + banner(styleNonce) + html.slice(at);
  if (page.includes('id="xpay-boot"') && page.includes("</main>")) {
    page = insertBefore(page, "</main>", panel());
    page = insertBefore(page, "</body>", panelScript(policyNonce(policy, "script-src")));
  }
  return page;
}

/** `decorate` of ServeExtras: the header on every answer, the banner on every HTML page. */
export async function markTestMode(request: Request, response: Response): Promise<Response> {
  const isHtml = (response.headers.get("content-type") ?? "").startsWith("text/html");
  if (!isHtml || request.method === "HEAD" || response.body === null) {
    const headers = new Headers(response.headers);
    headers.set(TEST_MODE_HEADER, TEST_MODE_VALUE);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
  const headers = new Headers(response.headers);
  headers.set(TEST_MODE_HEADER, TEST_MODE_VALUE);
  headers.delete("content-length");
  const body = await response.text();
  if (!/<body\b/i.test(body)) return new Response(body, { status: response.status, statusText: response.statusText, headers });
  const allowed = allowInlineStyle(headers.get("content-security-policy"));
  if (allowed.policy !== null) headers.set("content-security-policy", allowed.policy);
  const page = markPage(body, allowed.policy, allowed.nonce);
  return new Response(page, { status: response.status, statusText: response.statusText, headers });
}

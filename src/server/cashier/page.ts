// The hosted cashier page served at GET /pay/{trade_no}. One self-contained HTML document: the CSS
// and the browser script are imported as text (so a `bun build --compile` binary carries them) and
// inlined, because the page must work with no CDN and no internet. The script reads the order number
// from the boot JSON and talks to the checkout template API (/api/order/*) on its own.
import css from "./cashier.css" with { type: "text" };
import js from "./cashier.js" with { type: "text" };
import { escapeHtml } from "../../protocols/http.ts";

export interface CashierPageOptions {
  /** Platform order number (template API `order_id`). */
  tradeNo: string;
  /** Prefix for API calls when the gateway is mounted below the site root, e.g. "/gateway". Default "". */
  basePath?: string;
  /** Document title. Default "收银台". */
  title?: string;
  /** CSP nonce put on the inline <style> and <script> tags when the route sends a nonce-based policy. */
  nonce?: string;
}

export { escapeHtml };

/** JSON that is safe inside a <script> element: nothing in it can close the tag or open a comment. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

// Raw-text elements end at the first "</tag"; an asset must never be able to end its own element early.
function inlineRawText(text: string, tag: "script" | "style"): string {
  return text.replace(new RegExp(`</(${tag})`, "gi"), "<\\/$1").replace(/<!--/g, "<\\!--");
}

function normalizeBasePath(basePath: string | undefined): string {
  return (basePath ?? "").trim().replace(/\/+$/, "");
}

export function renderCashierPage(opts: CashierPageOptions): string {
  const tradeNo = String(opts.tradeNo ?? "");
  const title = opts.title ?? "收银台";
  const boot = jsonForScript({ trade_no: tradeNo, base_path: normalizeBasePath(opts.basePath) });
  const nonce = opts.nonce ? ` nonce="${escapeHtml(opts.nonce)}"` : "";

  return `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<meta name="format-detection" content="telephone=no">
<meta name="theme-color" content="#f4f6fa">
<title>${escapeHtml(title)}</title>
<style${nonce}>${inlineRawText(css, "style")}</style>
</head>
<body>
<main class="card" id="app">
  <header class="head">
    <span id="pay-logo" class="logo" hidden></span>
    <span id="pay-type-text" class="pay-type-text">收银台</span>
  </header>

  <h1 id="subject" class="subject">加载中…</h1>
  <p id="content" class="muted pre" hidden></p>

  <div class="amount-box">
    <div id="amount" class="amount" aria-label="应付金额"></div>
    <p id="order-amount" class="muted" hidden></p>
  </div>

  <p id="state" class="state state-loading" role="status" aria-live="polite">正在加载订单…</p>
  <p id="countdown-line" class="countdown-line" hidden>剩余支付时间 <strong id="countdown">--:--</strong></p>

  <section id="pay-types" class="pay-types" aria-label="选择支付方式" hidden></section>

  <section id="pay-box" class="pay-box" hidden>
    <div class="qr-wrap">
      <img id="qr" class="qr" alt="付款二维码" width="240" height="240" hidden>
      <p id="qr-msg" class="qr-msg" hidden></p>
      <div id="qr-cover" class="qr-cover" hidden>
        <p id="qr-cover-text" class="pre"></p>
        <button type="button" id="qr-cover-close" class="btn btn-small">我已知晓，显示二维码</button>
      </div>
    </div>
    <p id="scan-hint" class="muted"></p>
    <a id="open-app" class="btn btn-primary" hidden></a>
    <button type="button" id="audio-play" class="btn btn-small btn-plain" hidden>▶ 播放语音提示</button>
    <p id="account" class="muted" hidden></p>
    <p id="account-tip" class="tip pre" hidden></p>
    <p id="pay-tip" class="tip pre" hidden></p>
  </section>

  <section id="result" class="result" hidden>
    <div id="result-icon" class="result-icon" aria-hidden="true"></div>
    <p id="result-text" class="muted"></p>
    <p id="redirect-tip" class="muted" hidden></p>
    <a id="return-link" class="btn btn-primary" hidden>立即返回商户</a>
  </section>

  <footer class="foot">
    <p>订单号：<span id="order-no">${escapeHtml(tradeNo)}</span></p>
    <p id="service-qq" hidden></p>
  </footer>
</main>
<noscript><p class="noscript">请启用浏览器的 JavaScript 后刷新本页面。</p></noscript>
<script type="application/json" id="xpay-boot">${boot}</script>
<script${nonce}>${inlineRawText(js, "script")}</script>
</body>
</html>
`;
}

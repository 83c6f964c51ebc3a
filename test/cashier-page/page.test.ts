import { describe, expect, test } from "bun:test";
import { escapeHtml, jsonForScript, renderCashierPage } from "../../src/server/cashier/page.ts";
import css from "../../src/server/cashier/cashier.css" with { type: "text" };
import js from "../../src/server/cashier/cashier.js" with { type: "text" };

const HOSTILE = `"><script>alert('x')</script><img src=x onerror=alert(1)>&'`;

function bootJson(html: string): unknown {
  const m = /<script type="application\/json" id="xpay-boot">([\s\S]*?)<\/script>/.exec(html);
  expect(m).not.toBeNull();
  return JSON.parse(m![1]!);
}

describe("escapeHtml", () => {
  test("escapes every HTML-significant character", () => {
    expect(escapeHtml(`<a href="x" title='y'>&\`</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&#96;&lt;/a&gt;",
    );
  });

  test("stringifies non-strings and treats null/undefined as empty", () => {
    expect(escapeHtml(42)).toBe("42");
    expect(escapeHtml(null)).toBe("");
    expect(escapeHtml(undefined)).toBe("");
  });
});

describe("jsonForScript", () => {
  test("cannot close a script element and still parses back", () => {
    const value = { s: "</script><!-- & \u2028\u2029 >" };
    const out = jsonForScript(value);
    expect(out).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(out)).toEqual(value);
  });
});

describe("renderCashierPage", () => {
  test("is a complete zh-CN document with UTF-8 and a mobile viewport", () => {
    const html = renderCashierPage({ tradeNo: "20240101120000123456" });
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain('<html lang="zh-CN">');
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toMatch(/<meta name="viewport" content="width=device-width, initial-scale=1[^"]*">/);
    expect(html).toContain("<title>收银台</title>");
    expect(html.trimEnd().endsWith("</html>")).toBe(true);
  });

  test("boot JSON parses back to the trade number and base path", () => {
    const html = renderCashierPage({ tradeNo: "20240101120000123456", basePath: "/gw/" });
    expect(bootJson(html)).toEqual({ trade_no: "20240101120000123456", base_path: "/gw" });
    expect(bootJson(renderCashierPage({ tradeNo: "1" }))).toEqual({ trade_no: "1", base_path: "" });
  });

  test("escapes a hostile trade number and title", () => {
    const html = renderCashierPage({ tradeNo: HOSTILE, title: HOSTILE, basePath: HOSTILE });
    // The only script tags are the two the page puts there itself.
    expect(html.match(/<script\b/gi)).toHaveLength(2);
    expect(html.match(/<\/script>/gi)).toHaveLength(2);
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain(`"><script>`);
    expect(html).toContain(`<title>${escapeHtml(HOSTILE)}</title>`);
    expect(html).toContain(`<span id="order-no">${escapeHtml(HOSTILE)}</span>`);
    // The boot JSON escapes "<" as \u003c and still round-trips exactly.
    const boot = /id="xpay-boot">([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(boot).not.toContain("<");
    expect(boot).toContain("\\u003cscript");
    expect((bootJson(html) as { trade_no: string }).trade_no).toBe(HOSTILE);
  });

  test("escapes the CSP nonce when one is given", () => {
    const html = renderCashierPage({ tradeNo: "1", nonce: `a"b` });
    expect(html).toContain('<style nonce="a&quot;b">');
    expect(html).toContain('<script nonce="a&quot;b">');
    expect(renderCashierPage({ tradeNo: "1" })).not.toContain("nonce=");
  });

  test("inlines the stylesheet and the script", () => {
    const html = renderCashierPage({ tradeNo: "1" });
    expect(css.length).toBeGreaterThan(500);
    expect(js.length).toBeGreaterThan(1000);
    expect(html).toContain(`<style>${css}</style>`);
    expect(html).toContain(`<script>${js}</script>`);
    expect(html).not.toMatch(/<link\b/i);
    expect(html).not.toMatch(/<script[^>]*\bsrc=/i);
  });

  test("references nothing outside the page (no CDN, no internet)", () => {
    const html = renderCashierPage({ tradeNo: "1", title: "测试" });
    // Report the offending snippet, not the whole page.
    const found = (re: RegExp) => re.exec(html)?.[0];
    expect(found(/.{0,40}https?:\/\/.{0,40}/i)).toBeUndefined();
    expect(found(/(?:src|href)\s*=\s*["']?\/\/.{0,40}/i)).toBeUndefined();
    expect(/@import|\burl\(/i.exec(css)?.[0]).toBeUndefined();
  });

  test("assets cannot end their own raw-text element early", () => {
    expect(js).not.toMatch(/<\/script|<!--/i);
    expect(css).not.toMatch(/<\/style|<!--/i);
  });

  test("has the element ids the script and the tests rely on", () => {
    const html = renderCashierPage({ tradeNo: "1" });
    for (const id of ["subject", "amount", "qr", "countdown", "state", "pay-types", "open-app"]) {
      expect(html).toContain(`id="${id}"`);
    }
    expect(html).toMatch(/<img id="qr"/);
    // Shown by the script only when the amount to pay differs from the order amount.
    expect(html).not.toContain('id="amount-diff"');
  });
});

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { harness, type Harness, seed } from "../helpers.ts";
import { nativeOrder } from "./support.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
});
afterEach(() => h.close());

const get = (path: string) => h.app.handle(new Request(`http://localhost${path}`));

describe("GET /pay/:trade_no", () => {
  test("renders the cashier shell for the order, never cached, under a nonce CSP", async () => {
    const o = await nativeOrder(h, { name: "<b>VIP</b>" });
    const res = await get(`/pay/${o.trade_no}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const csp = res.headers.get("content-security-policy")!;
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)![1]!;
    const html = await res.text();
    expect(html).toContain(`<script nonce="${nonce}">`);
    expect(html).toContain(`<style nonce="${nonce}">`);
    expect(csp).toContain("connect-src 'self'");
    expect(html).toContain(`"trade_no":"${o.trade_no}"`);
    expect(html).toContain("<title>收银台 - &lt;b&gt;VIP&lt;/b&gt;</title>");
    // A fresh nonce per response.
    const again = (await get(`/pay/${o.trade_no}`)).headers.get("content-security-policy");
    expect(again).not.toBe(csp);
  });

  test("the API base path follows a base URL below the site root", async () => {
    h.gw.baseUrl = "https://pay.example/gateway";
    const o = await nativeOrder(h);
    expect(await (await get(`/pay/${o.trade_no}`)).text()).toContain(`"base_path":"/gateway"`);
  });

  test("an unknown or malformed order number is a 404 page", async () => {
    for (const path of ["/pay/20990101000000000000", "/pay/%3Cscript%3E"]) {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await res.text()).toContain("订单不存在");
    }
  });
});

describe("GET /qrcode", () => {
  test("PNG by default, SVG on request, cacheable", async () => {
    const png = await get(`/qrcode?text=${encodeURIComponent("https://qr.alipay.com/fkx0001")}`);
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
    expect(png.headers.get("cache-control")).toContain("max-age=");
    const bytes = new Uint8Array(await png.arrayBuffer());
    expect([...bytes.slice(1, 4)].map((c) => String.fromCharCode(c)).join("")).toBe("PNG");
    const svg = await get(`/qrcode?text=hello&format=svg&size=128`);
    expect(svg.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    const text = await svg.text();
    expect(text).toStartWith("<svg");
    expect(text).toContain('width="128"');
  });

  test("bad input is a 400 in the template error shape", async () => {
    const cases = [
      "/qrcode",
      `/qrcode?text=${"a".repeat(1025)}`,
      "/qrcode?text=a&format=gif",
      "/qrcode?text=a&size=10",
      "/qrcode?text=a&size=abc",
      `/qrcode?text=${encodeURIComponent("二".repeat(1000))}`, // 1000 characters but 3000 bytes: too much data for a QR code
    ];
    for (const path of cases) {
      const res = await get(path);
      expect(res.status).toBe(400);
      const body = (await res.json()) as any;
      expect(body).toEqual({ code: 400, message: expect.any(String), data: null });
    }
    expect((await get(`/qrcode?text=${"a".repeat(1024)}`)).status).toBe(200);
  });
});

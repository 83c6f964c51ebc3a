// The account form reads a collection code's QR content from an image in the browser
// (src/admin/assets/accounts.js, with jsQR). The decode function the page runs is loaded here from
// the served assets themselves (accounts.js and jsQR, run as CommonJS): PNGs made by the qrcode
// package (as a payment app's collection code is) decode to their text, also inside a larger
// screenshot-like picture and in inverted colours; a picture without a code gives null. The
// console's preview image decodes to what was typed.
import { describe, expect, test } from "bun:test";
import QRCode from "qrcode";
import { ASSETS } from "../../src/admin/assets.ts";
import { renderQr } from "../../src/server/qrcode.ts";

// The qrcode package's own PNG codec (its dependency; no types of its own).
const { PNG } = require("pngjs") as { PNG: { sync: { read(b: Buffer): { data: Buffer; width: number; height: number } } } };
type JsQR = (data: Uint8ClampedArray, w: number, h: number, o?: object) => { data: string } | null;

/** Runs a served asset (the bytes the browser gets) as CommonJS and returns its exports. */
function load<T>(name: string): T {
  const module = { exports: {} as T };
  new Function("module", "exports", ASSETS.find((a) => a.name === name)!.body)(module, module.exports);
  return module.exports;
}
const jsQR = load<JsQR>("jsqr");
const { decodeQr, scaled } = load<{
  decodeQr: (j: JsQR, data: Uint8ClampedArray, w: number, h: number) => string | null;
  scaled: (w: number, h: number, side: number) => { width: number; height: number };
}>("accounts.js");

interface Pixels {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

const read = (png: Uint8Array): Pixels => {
  const p = PNG.sync.read(Buffer.from(png));
  return { data: new Uint8ClampedArray(p.data), width: p.width, height: p.height };
};

/** The code pasted at (x, y) on a grey page of w x h, as in a screenshot of a payment app. */
function onPage(code: Pixels, w: number, h: number, x: number, y: number): Pixels {
  const data = new Uint8ClampedArray(w * h * 4).fill(236);
  for (let row = 0; row < code.height; row++) {
    data.set(code.data.subarray(row * code.width * 4, (row + 1) * code.width * 4), ((y + row) * w + x) * 4);
  }
  return { data, width: w, height: h };
}

const decode = (p: Pixels) => decodeQr(jsQR, p.data, p.width, p.height);
const ALIPAY = "https://qr.alipay.com/fkx18934wbtnnqmhp5ch9b7";
const WECHAT = "wxp://f2f0p7Ne5Ot1Vb9mPsBGKkN2xdMwa3AmWJYd";

describe("decodeQr (the asset's own function)", () => {
  test("a collection code made by the qrcode package decodes to its text", async () => {
    for (const text of [ALIPAY, WECHAT, "https://qr.95516.com/00010000/01234567890123456789", "收款码 ¥12.50"]) {
      expect(decode(read(await QRCode.toBuffer(text, { type: "png", width: 300, margin: 2 })))).toBe(text);
    }
  });

  test("inside a larger picture, off centre", async () => {
    const code = read(await QRCode.toBuffer(ALIPAY, { type: "png", width: 260, margin: 2 }));
    expect(decode(onPage(code, 720, 1280, 230, 500))).toBe(ALIPAY);
  });

  test("light modules on a dark background (inverted)", async () => {
    const code = read(await QRCode.toBuffer(WECHAT, { type: "png", width: 300, margin: 2 }));
    for (let i = 0; i < code.data.length; i += 4) for (let c = 0; c < 3; c++) code.data[i + c] = 255 - code.data[i + c]!;
    expect(decode(code)).toBe(WECHAT);
  });

  test("a picture without a code gives null (the page then says so)", () => {
    expect(decode({ data: new Uint8ClampedArray(200 * 200 * 4).fill(200), width: 200, height: 200 })).toBeNull();
  });

  test("large images are drawn at most 1024 px a side first", () => {
    expect(scaled(4000, 3000, 1024)).toEqual({ width: 1024, height: 768 });
    expect(scaled(600, 800, 1024)).toEqual({ width: 600, height: 800 });
  });
});

test("the preview the console shows is the cashier's rendering and decodes to the content", async () => {
  const r = await renderQr(ALIPAY, "png", 240);
  expect(r.ok).toBe(true);
  if (r.ok) expect(decode(read(r.body as Uint8Array))).toBe(ALIPAY);
});

// GET /qrcode?text=...&format=png|svg&size=N: renders a QR image on the gateway itself, so the
// cashier page (and hash `url_qrcode`) never depends on an outside QR service. The image depends on
// the query only, so browsers and CDNs may keep it; input size is bounded because the route is
// public.
import { Elysia } from "elysia";
import { apiError, Code, QR_MAX_TEXT, QR_PATH } from "../protocols/cashier/codec.ts";
import { json } from "../protocols/http.ts";

const CACHE = "public, max-age=86400, immutable";
const DEFAULT_SIZE = 280;

type Rendered = { ok: true; body: string | Uint8Array<ArrayBuffer>; type: string } | { ok: false; status: number; message: string };

export async function renderQr(text: string, format: string, size: number): Promise<Rendered> {
  // Margin 2 modules: enough quiet zone for phone scanners while keeping the image compact.
  const opts = { errorCorrectionLevel: "M" as const, margin: 2, width: size };
  const { default: QRCode } = await import("qrcode");
  try {
    if (format === "svg") return { ok: true, body: await QRCode.toString(text, { ...opts, type: "svg" }), type: "image/svg+xml; charset=utf-8" };
    return { ok: true, body: new Uint8Array(await QRCode.toBuffer(text, { ...opts, type: "png" })), type: "image/png" };
  } catch (e) {
    // Only oversized data reaches here (UTF-8 text can exceed a QR code's capacity within 1024 characters).
    return { ok: false, status: Code.BadRequest, message: `text does not fit in a QR code: ${e instanceof Error ? e.message : e}` };
  }
}

export async function qrImage(request: Request): Promise<Response> {
  const q = new URL(request.url).searchParams;
  const text = q.get("text") ?? "";
  const format = (q.get("format") ?? "png").toLowerCase();
  const sizeParam = q.get("size");
  const size = sizeParam === null ? DEFAULT_SIZE : Number(sizeParam);
  const bad = (message: string) => json(apiError(Code.BadRequest, message), Code.BadRequest);
  if (text === "") return bad("missing parameter: text");
  if (text.length > QR_MAX_TEXT) return bad(`text is longer than ${QR_MAX_TEXT} characters`);
  if (format !== "png" && format !== "svg") return bad("format must be png or svg");
  if (!Number.isInteger(size) || size < 64 || size > 1024) return bad("size must be an integer from 64 to 1024 (pixels)");
  const r = await renderQr(text, format, size);
  if (!r.ok) return bad(r.message);
  return new Response(r.body, { headers: { "content-type": r.type, "cache-control": CACHE, "x-content-type-options": "nosniff" } });
}

export function qrcodePlugin() {
  return new Elysia({ name: "xpay-qrcode" }).get(QR_PATH, ({ request }) => qrImage(request), { parse: "none", detail: { summary: "QR code image (png or svg)" } });
}

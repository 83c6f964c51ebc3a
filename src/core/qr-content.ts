// What a receiving account's QR content may be (issue 31 item 9). The content is what the payer
// scans, so a typo ("not a url", a WeChat code on an Alipay account) only shows when a payer's app
// says "not a payment code" and the order times out. Each pay type has the form its app's
// personal collection code takes; another URL is accepted only when the operator says so (CLI
// `--force`, the console's "不是常见格式，仍然保存" box), for the rarer codes (赞赏码, 经营码, a
// new host). Something that is not a URL at all is refused even then: no payer's app opens it.
// The account rule (channel-input.ts) runs this for the CLI and the console alike.

/** The gateway's QR renderer draws at most this many characters (protocols/links.ts QR_MAX_TEXT). */
export const QR_CONTENT_MAX = 1024;

/** The usual content per pay type: the app's collection code. Host and scheme in any case. */
const USUAL: Record<string, { example: string; fits: (u: URL) => boolean }> = {
  alipay: { example: "https://qr.alipay.com/...", fits: (u) => u.protocol === "https:" && u.hostname === "qr.alipay.com" && u.pathname.length > 1 },
  wxpay: { example: "wxp://...", fits: (u) => u.protocol === "wxp:" && u.href.length > "wxp://".length && u.href.toLowerCase().startsWith("wxp://") },
  qqpay: { example: "https://i.qianbao.qq.com/...", fits: (u) => u.protocol === "https:" && u.hostname === "i.qianbao.qq.com" && u.pathname.length > 1 },
};

/** Schemes that run or embed instead of naming a payment: never a QR content, even with force. */
const NEVER = new Set(["javascript:", "vbscript:", "data:", "file:", "blob:", "about:"]);

export type QrContentVerdict =
  | { kind: "ok" }
  /** Not a URL (or a scheme no payment uses): refused, --force or not. */
  | { kind: "not_url" }
  | { kind: "too_long"; max: number }
  /** A URL, but not this pay type's usual form: saved only when forced. */
  | { kind: "unusual"; expected: string };

/** The usual form of a pay type's content ("https://qr.alipay.com/..."), or null for a type xpay does not know. */
export function usualQrContent(payType: string): string | null {
  return USUAL[payType]?.example ?? null;
}

function asUrl(text: string): URL | null {
  // A URL has a scheme, something after it and no spaces or control characters (which a QR
  // scanner would keep and an app would refuse).
  if (!/^[a-z][a-z0-9+.-]*:\S+$/i.test(text) || /^[a-z][a-z0-9+.-]*:\/*$/i.test(text) || /[\u0000-\u001f\u007f]/.test(text)) return null;
  try {
    const u = new URL(text);
    if (NEVER.has(u.protocol)) return null;
    if ((u.protocol === "http:" || u.protocol === "https:") && u.hostname === "") return null;
    return u;
  } catch {
    return null;
  }
}

/** Checks a QR content for a pay type; `force` accepts any URL that is not the usual form. */
export function checkQrContent(payType: string, text: string, force = false): QrContentVerdict {
  if (text.length > QR_CONTENT_MAX) return { kind: "too_long", max: QR_CONTENT_MAX };
  const u = asUrl(text);
  if (!u) return { kind: "not_url" };
  const usual = USUAL[payType];
  if (!usual || usual.fits(u) || force) return { kind: "ok" };
  return { kind: "unusual", expected: usual.example };
}

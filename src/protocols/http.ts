// Small HTTP helpers the route plugins share (never used by the pure codecs).
import { isIP } from "node:net";
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8" } });
}

export function text(body: string, status = 200): Response {
  return new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
}

/**
 * Every HTML page is served under a policy that runs no script and loads nothing: error pages need
 * only their inline style. The cashier page replaces it with its own nonce policy.
 */
export const STATIC_PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function html(body: string, status = 200): Response {
  return new Response(body, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": STATIC_PAGE_POLICY, "x-content-type-options": "nosniff" },
  });
}

export function redirect(location: string): Response {
  return new Response(null, { status: 302, headers: { location } });
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;", "`": "&#96;" };

/** Escapes text for HTML element content and quoted attribute values (the cashier page uses it too). */
export function escapeHtml(value: unknown): string {
  return String(value ?? "").replace(/[&<>"'`]/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

/** A minimal error page for the browser-facing create routes (create-page, submit.php, V2 submit). */
export function errorPage(message: string, status = 400): Response {
  const m = escapeHtml(message);
  return html(
    `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
      `<title>支付请求错误</title><style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#333}` +
      `h1{font-size:1.25rem;color:#c0392b}p{line-height:1.6;word-break:break-all}</style></head>` +
      `<body><h1>支付请求错误</h1><p id="error">${m}</p></body></html>`,
    status,
  );
}

type SocketSource = { requestIP(r: Request): { address: string } | null } | null | undefined;

// Bun's requestIP() builds a new address object on every call, and a create asks twice (the
// order's clientip, then the access log): the answer is kept per request.
const socketAddresses = new WeakMap<Request, string>();

/** The address of the socket a request came in on. */
export function socketIp(request: Request, server: SocketSource): string {
  let ip = socketAddresses.get(request);
  if (ip === undefined) {
    ip = server?.requestIP(request)?.address ?? "";
    socketAddresses.set(request, ip);
  }
  return ip;
}

/**
 * The client's address: the socket peer, or, behind `proxyHops` trusted proxies, the entry of
 * X-Forwarded-For that the first of them appended (the Nth from the right). Entries to the left of
 * it were written by the client and prove nothing; a value that is not an IP address is ignored.
 */
export function peerIp(request: Request, server: SocketSource, proxyHops: number): string {
  if (proxyHops > 0) {
    const entries = (request.headers.get("x-forwarded-for") ?? "").split(",").map((e) => e.trim());
    const candidate = entries.length >= proxyHops ? entries[entries.length - proxyHops]! : "";
    if (isIP(candidate) !== 0) return candidate;
  }
  return socketIp(request, server);
}

// The hostile-input table: every route of every family (ROUTES) x every kind of garbage (PAYLOADS),
// and what a right answer looks like (the family's own error shape, never a 500 or a stack trace).
// Shared by the SQLite sweep (bad-input.test.ts) and the PostgreSQL one (test/pg/bad-input.test.ts).
export type Shape = "native" | "template" | "v1" | "v2" | "hash" | "html" | "report";
export interface Route { method: "GET" | "POST"; path: string; shape: Shape }

export const ROUTES: Route[] = [
  { method: "POST", path: "/xpay/order/create", shape: "native" },
  { method: "POST", path: "/xpay/order/create-page", shape: "html" },
  { method: "POST", path: "/xpay/order/status", shape: "native" },
  { method: "POST", path: "/xpay/order/cancel", shape: "native" },
  { method: "POST", path: "/xpay/user-channels", shape: "native" },
  { method: "GET", path: "/xpay/epay/submit.php", shape: "html" },
  { method: "POST", path: "/xpay/epay/submit.php", shape: "html" },
  { method: "POST", path: "/xpay/epay/mapi.php", shape: "v1" },
  { method: "GET", path: "/xpay/epay/api.php", shape: "v1" },
  { method: "POST", path: "/xpay/epay/api.php", shape: "v1" },
  { method: "GET", path: "/xpay/epayn/api/pay/submit", shape: "html" },
  { method: "POST", path: "/xpay/epayn/api/pay/submit", shape: "html" },
  { method: "POST", path: "/xpay/epayn/api/pay/create", shape: "v2" },
  { method: "GET", path: "/xpay/epayn/api/pay/query", shape: "v2" },
  { method: "POST", path: "/xpay/epayn/api/pay/query", shape: "v2" },
  { method: "POST", path: "/xpay/hashpay", shape: "hash" },
  { method: "POST", path: "/xpay/hashpay/", shape: "hash" },
  { method: "POST", path: "/xpay/hashpay/payment/do.html", shape: "hash" },
  { method: "POST", path: "/xpay/hashpay/payment/query.html", shape: "hash" },
  { method: "POST", path: "/xpay/hupijiao/payment/do.html", shape: "hash" },
  { method: "POST", path: "/xpay/hupijiao/payment/query.html", shape: "hash" },
  ...["info", "status", "audio", "qrcode", "pay-types", "pay-type"].map((r): Route => ({ method: "POST", path: `/api/order/${r}`, shape: "template" })),
  { method: "POST", path: "/api/report/1001", shape: "report" },
  { method: "GET", path: "/api/report/1001/pc", shape: "report" },
  { method: "POST", path: "/api/report/1001/pc", shape: "report" },
  { method: "POST", path: "/api/report/abc/pc", shape: "report" },
  { method: "POST", path: "/api/report/1001/heart", shape: "report" },
  { method: "POST", path: "/api/report/third-account", shape: "report" },
  { method: "POST", path: "/api/report/smsforwarder/1", shape: "report" },
  { method: "POST", path: "/api/report/smsforwarder/abc", shape: "report" },
  { method: "POST", path: "/api/report/third-account/heart", shape: "report" },
  { method: "GET", path: "/qrcode", shape: "template" },
  // V免签 (vmq) answers {code: -1, msg} with HTTP 200, the shape V1 uses.
  ...["appHeart", "appPush", "getState", "createOrder", "getOrder", "checkOrder", "closeOrder"].flatMap((r): Route[] => [
    { method: "GET", path: `/${r}`, shape: "v1" },
    { method: "POST", path: `/${r}`, shape: "v1" },
  ]),
];

export const MB = "a=" + "x".repeat(1024 * 1024);
const invalidUtf8 = new Uint8Array([0x70, 0x69, 0x64, 0x3d, 0xff, 0xfe, 0xc3, 0x28, 0x26, 0x6d, 0x3d, 0xa0]);
export const form = "application/x-www-form-urlencoded";
export const jsonType = "application/json";

/** name -> [content-type, body or query]. GET routes get the body as their query string. */
export const PAYLOADS: [string, string, string | Uint8Array<ArrayBuffer>][] = [
  ["missing", form, ""],
  ["empty values", form, "pid=&sign=&money=&out_trade_no=&order_id=&amount=&hash=&appid=&text="],
  ["overlong 1 MB", form, MB],
  ["wrong types (JSON)", jsonType, JSON.stringify({ pid: { a: 1 }, money: [1, 2], name: true, sign: 5, amount: { x: 1 }, order_id: [] })],
  ["invalid JSON", jsonType, "{\"pid\": 1001, "],
  ["JSON array", jsonType, "[1,2,3]"],
  ["JSON scalar", jsonType, "null"],
  ["invalid UTF-8", form, invalidUtf8],
  ["invalid percent-encoding", form, "pid=%FF%FE&name=%C3%28&money=%"],
  ["duplicate keys", form, "pid=1001&pid=1002&money=1&money=2"],
  ["arrays", form, "pid[]=1001&money[]=10&order_id[]=x&amount[0]=1"],
  ["SQL metacharacters", form, "pid=1001' OR '1'='1&out_trade_no=x'; DROP TABLE orders;--&order_id=1' OR 1=1--&amount=1;DELETE FROM orders"],
  ["HTML metacharacters", form, "pid=<script>alert(1)</script>&name=\"><img src=x onerror=alert(1)>&order_id=<b>&text=<svg onload=alert(1)>"],
  ["negative amount", form, "pid=1001&money=-10.00&amount=-1000&total_fee=-1"],
  ["huge amount", form, "pid=1001&money=1e309&amount=99999999999999999999999&total_fee=9999999999999999.99"],
  ["fractional amount", form, "pid=1001&money=0.001&amount=10.5&total_fee=0.0001"],
  ["NUL bytes", form, "pid=1001%00&name=a%00b&order_id=%00"],
  ["very long single value", form, "order_id=" + "9".repeat(60000)],
];

export function shapeOk(shape: Shape, ct: string, text: string): string | null {
  if (ct.startsWith("image/")) return null; // /qrcode rendered the text it was given: a valid answer
  if (shape === "html") {
    if (ct.includes("text/html") || ct.includes("json")) return null; // error page (or a JSON 404 for a bad route)
    return `expected HTML, got ${ct}`;
  }
  let b: any;
  try {
    b = JSON.parse(text);
  } catch {
    return `not JSON: ${text.slice(0, 120)}`;
  }
  const has = (...k: string[]) => k.every((x) => Object.hasOwn(b, x));
  switch (shape) {
    case "native": return has("code", "msg", "data") && typeof b.code === "number" ? null : `not {code,msg,data}: ${text.slice(0, 200)}`;
    case "template":
    case "report": return has("code", "message", "data") && typeof b.code === "number" ? null : `not {code,message,data}: ${text.slice(0, 200)}`;
    case "v1":
    case "v2": return b.code === -1 && typeof b.msg === "string" ? null : `not {code:-1,msg}: ${text.slice(0, 200)}`;
    case "hash": return has("errcode", "errmsg", "hash") && b.errcode !== 0 ? null : `not {errcode,errmsg,hash}: ${text.slice(0, 200)}`;
  }
}

export function leaks(text: string): boolean {
  return /\n\s+at\s/.test(text) || /\bError:/.test(text) || /\.ts:\d+/.test(text);
}

export function request(base: string, r: Route, ct: string, body: string | Uint8Array<ArrayBuffer>): Request {
  if (r.method === "GET") {
    const q = typeof body === "string" ? body : "pid=%FF%FE%C3%28";
    return new Request(`${base}${r.path}${q ? "?" + q : ""}`);
  }
  return new Request(`${base}${r.path}`, { method: "POST", headers: { "content-type": ct }, body });
}


/** Every route x every payload through `handle`; the failures, and how many requests were sent. */
export async function sweep(handle: (r: Request) => Promise<Response> | Response): Promise<{ failures: string[]; sent: number }> {
  const failures: string[] = [];
  let sent = 0;
  for (const r of ROUTES) {
    for (const [name, ct, b] of PAYLOADS) {
      const res = await handle(request("http://localhost", r, ct, b));
      const text = await res.text();
      sent++;
      const where = `${r.method} ${r.path} [${name}] -> ${res.status}`;
      if (res.status >= 500) failures.push(`${where}: 5xx ${text.slice(0, 200)}`);
      else if (leaks(text)) failures.push(`${where}: leaks ${text.slice(0, 200)}`);
      else {
        const bad = shapeOk(r.shape, res.headers.get("content-type") ?? "", text);
        if (bad) failures.push(`${where}: ${bad}`);
      }
    }
  }
  return { failures, sent };
}

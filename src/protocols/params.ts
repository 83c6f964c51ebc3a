// One reader for request parameters across the families: query string, form body or JSON body
// (recognised by its leading `{` whatever the Content-Type, as hash-protocol clients send it).
// Every value comes out as a string, since signatures are computed over the string form.
export const MAX_BODY_BYTES = 64 * 1024;

export type Params = Record<string, string>;
export type ParamsResult = { ok: true; params: Params } | { ok: false; reason: string };

/**
 * No SDK sends a NUL character, and PostgreSQL's text cannot hold one (its insert fails, which was
 * a 500 on that store): refused here, for every family and both stores, without echoing what came.
 */
const NUL_REFUSED = "a parameter contains a NUL character";
const hasNul = (k: string, v: string) => k.includes("\0") || v.includes("\0");

function scalar(key: string, v: unknown): string | { error: string } {
  if (typeof v === "string") return v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  if (typeof v === "bigint") return String(v);
  if (v === null) return "";
  return { error: `parameter ${key} must be a string` };
}

function fromJson(text: string): ParamsResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, reason: "request body is not valid JSON" };
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) return { ok: false, reason: "request body must be a JSON object" };
  const params: Params = {};
  for (const [k, v] of Object.entries(data)) {
    const s = scalar(k, v);
    if (typeof s !== "string") return { ok: false, reason: s.error };
    if (hasNul(k, s)) return { ok: false, reason: NUL_REFUSED };
    params[k] = s;
  }
  return { ok: true, params };
}

/**
 * The pairs URLSearchParams reads from `text` (the WHATWG form decoding), read directly: split on
 * `&` and the first `=`, `+` as a space, `%XX` through decodeURIComponent. URLSearchParams built
 * and iterated cost 2.5-3 µs a create body against 1 µs. Wherever the two could differ (a lone
 * surrogate, which URLSearchParams turns into U+FFFD; a `%` sequence that is not valid UTF-8,
 * where decodeURIComponent throws and URLSearchParams writes U+FFFD or keeps the `%`), the text is
 * read by URLSearchParams itself. test/money/form-pairs.test.ts holds the two equal.
 */
export function formPairs(text: string): [string, string][] {
  if (!text.isWellFormed()) return [...new URLSearchParams(text)];
  const pairs: [string, string][] = [];
  const from = text.startsWith("?") ? 1 : 0; // as URLSearchParams drops a leading "?"
  try {
    for (const piece of (from ? text.slice(from) : text).split("&")) {
      if (piece === "") continue;
      const eq = piece.indexOf("=");
      pairs.push(eq < 0 ? [formDecode(piece), ""] : [formDecode(piece.slice(0, eq)), formDecode(piece.slice(eq + 1))]);
    }
  } catch {
    return [...new URLSearchParams(text)];
  }
  return pairs;
}

function formDecode(s: string): string {
  const spaced = s.includes("+") ? s.replaceAll("+", " ") : s;
  return spaced.includes("%") ? decodeURIComponent(spaced) : spaced;
}

/** Form or query encoding; a key given twice is refused rather than guessed at. */
export function fromForm(text: string): ParamsResult {
  const params: Params = {};
  for (const [k, v] of formPairs(text)) {
    if (Object.hasOwn(params, k)) return { ok: false, reason: `parameter ${k} is given more than once` };
    if (k.endsWith("[]") || /\[.*\]$/.test(k)) return { ok: false, reason: `parameter ${k} must be a string` };
    if (hasNul(k, v)) return { ok: false, reason: NUL_REFUSED };
    params[k] = v;
  }
  return { ok: true, params };
}

export function parseBody(text: string): ParamsResult {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) return fromJson(trimmed);
  return fromForm(text);
}

/** One decoder for every body: decode() without `stream` keeps nothing between calls. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

export async function readBody(request: Request): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) return { ok: false, reason: `request body is larger than ${MAX_BODY_BYTES} bytes` };
  let buf: ArrayBuffer;
  try {
    buf = await request.arrayBuffer();
  } catch {
    return { ok: false, reason: "request body could not be read" };
  }
  if (buf.byteLength > MAX_BODY_BYTES) return { ok: false, reason: `request body is larger than ${MAX_BODY_BYTES} bytes` };
  try {
    return { ok: true, text: UTF8.decode(buf) };
  } catch {
    return { ok: false, reason: "request body is not valid UTF-8" };
  }
}

export function queryString(request: Request): string {
  const i = request.url.indexOf("?");
  return i < 0 ? "" : request.url.slice(i + 1);
}

/**
 * Parameters of a request: GET reads the query; POST reads the body, or the query when the body
 * is empty (some SDKs post with everything in the URL).
 */
export async function readParams(request: Request): Promise<ParamsResult> {
  const query = queryString(request);
  if (request.method === "GET" || request.method === "HEAD") return safeForm(query);
  const body = await readBody(request);
  if (!body.ok) return body;
  if (body.text.trim() === "") return safeForm(query);
  return parseBody(body.text);
}

function safeForm(text: string): ParamsResult {
  try {
    return fromForm(text);
  } catch {
    return { ok: false, reason: "query string is malformed" };
  }
}

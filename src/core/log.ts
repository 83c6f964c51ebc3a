// Structured events without secrets. Every log line goes through mask(), so a signature, a key
// or an AppSecret never reaches a log file whatever a caller passes.
export type LogFields = Record<string, unknown>;

export interface Logger {
  event(name: string, fields?: LogFields): void;
  error(name: string, fields?: LogFields): void;
}

export const silentLogger: Logger = { event() {}, error() {} };

const SECRET_KEYS = /^(sign|key|hash|secret|app_?secret|password|token|.*private_key.*|authorization)$/i;

export function maskValue(key: string, value: unknown): unknown {
  if (SECRET_KEYS.test(key)) return value === "" || value === undefined || value === null ? value : "***";
  if (typeof value === "string" && value.includes("-----BEGIN")) return "***";
  return value;
}

export function mask(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const k of Object.keys(fields)) {
    const v = fields[k];
    out[k] = v !== null && typeof v === "object" && !Array.isArray(v) ? mask(v as LogFields) : maskValue(k, v);
  }
  return out;
}

/** A path with the values of secret query parameters replaced (V1 api.php carries `key` there). */
export function maskUrlPath(pathWithQuery: string): string {
  const i = pathWithQuery.indexOf("?");
  if (i < 0) return pathWithQuery;
  const params = new URLSearchParams(pathWithQuery.slice(i + 1));
  for (const k of [...params.keys()]) if (SECRET_KEYS.test(k)) params.set(k, "***");
  return `${pathWithQuery.slice(0, i)}?${params.toString()}`;
}

/** Control characters: one test (no `g`: no state between calls), one replace of them all. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const CONTROLS = new RegExp(CONTROL.source, "g");

/**
 * Text for a terminal (the pretty log, CLI tables): control characters (C0, DEL, C1, the Unicode
 * line and paragraph separators) as escapes, so a stranger's text (a login name, an order name, a
 * report field) can neither start a forged line or row nor send the terminal escape sequences.
 */
export function printable(text: string): string {
  // Most texts (every access-log line's five) have none: a test is cheaper than a replace.
  if (!CONTROL.test(text)) return text;
  return text.replace(CONTROLS, (c) =>
    c === "\n" ? "\\n" : c === "\r" ? "\\r" : c === "\t" ? "\\t" : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

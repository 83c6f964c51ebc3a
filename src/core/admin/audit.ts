// The audit log: every operator action, from the console or the terminal, goes through audit(gw,
// entry) after it succeeded. Before/after values are redacted here, once, so no caller can store
// a secret by forgetting to: any key that names a password, secret, token, key or hash is masked.
import type { Gateway } from "../gateway.ts";
import type { AuditEntry, AuditFilter } from "./store.ts";

/** Who acts: an operator (name, address of the request) or the terminal (`cli`, no address). */
export interface Actor {
  name: string;
  ip: string;
}

export const CLI_ACTOR: Actor = { name: "cli", ip: "" };

export interface AuditInput {
  actor: Actor;
  /** `<noun>.<verb>`: `operator.add`, `session.revoke`, `order.close`, ... */
  action: string;
  /** What was acted on, e.g. `operator:alice`, `session:12`, `order:2026...`. */
  target?: string;
  before?: unknown;
  after?: unknown;
  reason?: string;
  /**
   * Top-level fields of before/after that the caller has masked already by a better rule than the
   * name (settings: by their `secret` flag), so a plain value is not masked for its name alone
   * (`notify_block_private` is a switch, not a private key). Every other field is masked as usual.
   */
  vouched?: readonly string[];
}

const SECRET_WORDS = new Set(["password", "passwd", "pass", "secret", "token", "key", "keys", "hash", "sign", "signature", "private", "authorization", "cookie", "pem"]);

/** `app_secret`, `passwordHash`, `rsa-private-key`: any word of the key is a secret word. */
export function secretKey(key: string): boolean {
  return key.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase().split(/[^a-z0-9]+/).some((w) => SECRET_WORDS.has(w));
}
const MAX_TEXT = 2000;

/** A copy of `value` with every secret-named field (but the `vouched` top-level ones) replaced by "***" and long strings cut. */
export function redact(value: unknown, depth = 0, vouched: readonly string[] = []): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (typeof value === "string") return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value.includes("-----BEGIN") ? "***" : value;
  if (typeof value !== "object") return value;
  if (depth > 5) return "…";
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = secretKey(k) && v !== "" && v !== null && !(depth === 0 && vouched.includes(k)) ? "***" : redact(v, depth + 1);
  return out;
}

export async function audit(gw: Gateway, e: AuditInput): Promise<number> {
  return gw.store.admin.appendAudit({
    at: gw.clock.now(),
    actor: e.actor.name,
    action: e.action,
    target: (e.target ?? "").slice(0, 200),
    ip: e.actor.ip,
    before: e.before === undefined ? null : redact(e.before, 0, e.vouched),
    after: e.after === undefined ? null : redact(e.after, 0, e.vouched),
    reason: (e.reason ?? "").slice(0, MAX_TEXT),
  });
}

export const AUDIT_PAGE_MAX = 200;

/** One page of the log, newest first; `limit` is clamped to 1..AUDIT_PAGE_MAX. */
export function listAudit(gw: Gateway, f: AuditFilter): Promise<AuditEntry[]> {
  return gw.store.admin.listAudit({ ...f, limit: Math.max(1, Math.min(AUDIT_PAGE_MAX, f.limit)) });
}

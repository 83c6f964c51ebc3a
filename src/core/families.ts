// Each wire family registers how its notifications and return redirects look; the core's outbox
// and pay flow call through this registry and never import a protocol.
import type { Family, Merchant, Order } from "./types.ts";

export interface SigningContext {
  merchant: Merchant;
  /** The platform private key (PEM) for families that sign with it (epay V2). */
  platformPrivateKey: string;
  now: number;
  /** The family's own key for this order, when it has one (signingKey below). */
  key?: string;
}

export interface FamilyNotifier {
  family: Family;
  /** The unsigned fields of the notification, stored in the outbox. */
  notificationParams(order: Order): Record<string, string>;
  method(merchant: Merchant): "GET" | "POST";
  /** Signs at send time (V2 needs a fresh timestamp on every attempt). */
  sign(params: Record<string, string>, ctx: SigningContext): Record<string, string>;
  /** Whether the merchant's answer stops the retries. */
  isAcknowledged(body: string): boolean;
  timeoutMs: number;
  /** The signed fields appended to return_url once the order is paid. */
  returnParams(order: Order, ctx: SigningContext): Record<string, string>;
  /**
   * Families whose orders are signed with a key other than the merchant's (V免签: the key of the
   * client that created the order) look it up here; null when it no longer exists.
   */
  signingKey?(order: Order): Promise<string | null>;
}

export class FamilyRegistry {
  private readonly notifiers = new Map<string, FamilyNotifier>();
  register(n: FamilyNotifier): void {
    this.notifiers.set(n.family, n);
  }
  get(family: string): FamilyNotifier {
    const n = this.notifiers.get(family);
    if (!n) throw new Error(`no notifier registered for family ${family}`);
    return n;
  }
  has(family: string): boolean {
    return this.notifiers.has(family);
  }
  /** How this merchant's notifications go out, per family (only native follows the merchant's notify_method). */
  methods(merchant: Merchant): { family: Family; method: "GET" | "POST" }[] {
    return [...this.notifiers.values()].map((n) => ({ family: n.family, method: n.method(merchant) }));
  }
}

/**
 * Appends query parameters to a URL that may already carry some. They go before a `#fragment`
 * (v2board's return_url is `https://shop/#/order/NO`): after it they would never reach the
 * merchant's server, and the fragment route of a single-page shop stays as it was.
 */
export function withQuery(url: string, params: Record<string, string>): string {
  const qs = new URLSearchParams(params).toString();
  if (!qs) return url;
  const hash = url.indexOf("#");
  const [head, fragment] = hash < 0 ? [url, ""] : [url.slice(0, hash), url.slice(hash)];
  return head + (head.includes("?") ? "&" : "?") + qs + fragment;
}

// The core object every edge (HTTP plugins, CLI commands, the worker) is given: the store, the
// clock, the base URL, the family registry and the operator settings.
import { type Clock, systemClock } from "./clock.ts";
import { FamilyRegistry } from "./families.ts";
import { type Logger, silentLogger } from "./log.ts";
import { type GatewayMetrics, noMetrics } from "./metrics.ts";
import type { Taker } from "./notify/handoff.ts";
import { type Lookup, systemLookup } from "./notify/target.ts";
import { Settings } from "./settings.ts";
import { TokenBuckets } from "./token-bucket.ts";
import type { Store } from "./store.ts";

export interface GatewayOptions {
  store: Store;
  baseUrl: string;
  clock?: Clock;
  /**
   * Honour X-Forwarded-For / -Proto / -Host from reverse proxies in front of xpay: true or 1 for
   * one proxy, N for a chain of N (a CDN, then nginx). The client writes the leftmost entries, so
   * the address is the one the first trusted proxy appended: the Nth from the right.
   */
  trustProxy?: boolean | number;
  /** The operator named the base URL (--base-url / XPAY_BASE_URL): it wins over forwarded headers. */
  baseUrlExplicit?: boolean;
  log?: Logger;
}

export class Gateway {
  readonly store: Store;
  readonly clock: Clock;
  readonly families = new FamilyRegistry();
  baseUrl: string;
  /** How many proxies in front of xpay append to X-Forwarded-For (0: the headers are ignored). */
  readonly proxyHops: number;
  /** Failed authentications per client address (the throttle of every family's auth). */
  readonly authFailures = new TokenBuckets();
  readonly baseUrlExplicit: boolean;
  log: Logger;
  /** Last beat (ms) of each background loop, read by /healthz. */
  readonly beats = new Map<string, number>();
  /**
   * Resolves notify_url names, at create (with notify_block_private on, and for V免签's URLs) and
   * before each delivery. Tests put their own here: this machine may have no outside DNS.
   */
  lookup: Lookup = systemLookup;
  /** Counters of /metrics; a no-op until the server installs its registry (server/metrics). */
  metrics: GatewayMetrics = noMetrics;
  private cached: { at: number; settings: Settings } | null = null;
  private readonly queuedListeners = new Set<() => void>();

  constructor(o: GatewayOptions) {
    this.store = o.store;
    this.baseUrl = o.baseUrl.replace(/\/+$/, "");
    this.clock = o.clock ?? systemClock;
    this.proxyHops = o.trustProxy === true ? 1 : typeof o.trustProxy === "number" ? Math.max(0, Math.floor(o.trustProxy)) : 0;
    this.baseUrlExplicit = o.baseUrlExplicit ?? false;
    this.log = o.log ?? silentLogger;
  }

  get trustProxy(): boolean {
    return this.proxyHops > 0;
  }

  /** Operator settings, re-read at most once a second so a CLI change reaches a running server. */
  async settings(): Promise<Settings> {
    const now = Date.now();
    if (this.cached && now - this.cached.at < 1000) return this.cached.settings;
    const settings = new Settings(await this.store.getSettings());
    this.cached = { at: now, settings };
    return settings;
  }

  forgetSettings(): void {
    this.cached = null;
  }

  /** The worker subscribes here to wake at once for outbox rows this process wrote. */
  onNotificationQueued(listener: () => void): () => void {
    this.queuedListeners.add(listener);
    return () => this.queuedListeners.delete(listener);
  }

  notificationQueued(): void {
    for (const l of this.queuedListeners) l();
  }

  private readonly takers = new Set<() => Taker | null>();
  /** The worker offers here to take a payment's notification as its row is written (notify/handoff.ts). */
  onTakeNotification(offer: () => Taker | null): () => void {
    this.takers.add(offer);
    return () => this.takers.delete(offer);
  }

  /** A worker of this process ready to take one more notification, or null. */
  notificationTaker(): Taker | null {
    for (const offer of this.takers) {
      const t = offer();
      if (t) return t;
    }
    return null;
  }

  /**
   * The public base URL for links in a response: the configured one, or, behind a trusted proxy
   * with no base URL configured, the scheme and host the payer used (X-Forwarded-Proto/-Host).
   */
  baseUrlFor(request?: Request): string {
    if (!request || !this.trustProxy || this.baseUrlExplicit) return this.baseUrl;
    const host = lastValue(request.headers.get("x-forwarded-host"));
    if (!host || !/^[A-Za-z0-9.-]+(:\d{1,5})?$/.test(host)) return this.baseUrl;
    const proto = lastValue(request.headers.get("x-forwarded-proto")) === "https" ? "https" : "http";
    return `${proto}://${host}${new URL(this.baseUrl).pathname.replace(/\/+$/, "")}`;
  }

  cashierUrl(tradeNo: string, request?: Request): string {
    return `${this.baseUrlFor(request)}/pay/${tradeNo}`;
  }

  /**
   * From the settings kept a second (every notification and return URL asked for it, a read of the
   * whole settings table each); the key is written once, at first start, and a change in this
   * process forgets the settings (forgetSettings). Read fresh while the kept settings lack it.
   */
  async platformPrivateKey(): Promise<string> {
    return (await this.settings()).str("platform_private_key") || ((await this.store.getSettings()).platform_private_key ?? "");
  }
}

/** A proxy that sets a forwarded header appends to (or replaces) what the client sent: the last value is the proxy's. */
function lastValue(header: string | null): string | undefined {
  return header?.split(",").pop()?.trim();
}

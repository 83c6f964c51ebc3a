// The core object every edge (HTTP plugins, CLI commands, the worker) is given: the store, the
// clock, the base URL, the family registry and the operator settings.
import { type Clock, systemClock } from "./clock.ts";
import { FamilyRegistry } from "./families.ts";
import { type Logger, silentLogger } from "./log.ts";
import { Settings } from "./settings.ts";
import type { Store } from "./store.ts";

export interface GatewayOptions {
  store: Store;
  baseUrl: string;
  clock?: Clock;
  /** Honour X-Forwarded-For / -Proto / -Host from a reverse proxy in front of xpay. */
  trustProxy?: boolean;
  log?: Logger;
}

export class Gateway {
  readonly store: Store;
  readonly clock: Clock;
  readonly families = new FamilyRegistry();
  baseUrl: string;
  readonly trustProxy: boolean;
  log: Logger;
  /** Last beat (ms) of each background loop, read by /healthz. */
  readonly beats = new Map<string, number>();
  private cached: { at: number; settings: Settings } | null = null;
  private readonly queuedListeners = new Set<() => void>();

  constructor(o: GatewayOptions) {
    this.store = o.store;
    this.baseUrl = o.baseUrl.replace(/\/+$/, "");
    this.clock = o.clock ?? systemClock;
    this.trustProxy = o.trustProxy ?? false;
    this.log = o.log ?? silentLogger;
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

  cashierUrl(tradeNo: string): string {
    return `${this.baseUrl}/pay/${tradeNo}`;
  }

  async platformPrivateKey(): Promise<string> {
    return (await this.store.getSettings()).platform_private_key ?? "";
  }
}

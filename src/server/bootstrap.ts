// Assembles a Gateway: the store, the registered families. `serve`, every CLI command and the
// tests build theirs here, so they all run the same core the same way.
import type { Clock } from "../core/clock.ts";
import { Gateway } from "../core/gateway.ts";
import type { Store } from "../core/store.ts";
import { nativeNotifier } from "../protocols/native/codec.ts";
import { epayV1Notifier } from "../protocols/epay-v1/codec.ts";
import { epayV2Notifier } from "../protocols/epay-v2/codec.ts";
import { hashpayNotifier } from "../protocols/hashpay/codec.ts";
import { vmqNotifier } from "../protocols/vmq/notifier.ts";
import { PostgresStore } from "../store/postgres/index.ts";
import { isPostgresUrl } from "../store/postgres/url.ts";
import { SqliteStore } from "../store/sqlite/index.ts";

export interface OpenOptions {
  db: string;
  baseUrl?: string;
  clock?: Clock;
  trustProxy?: boolean | number;
  baseUrlExplicit?: boolean;
  store?: Store;
}

export function registerFamilies(gw: Gateway): Gateway {
  gw.families.register(nativeNotifier);
  gw.families.register(epayV1Notifier);
  gw.families.register(epayV2Notifier);
  gw.families.register(hashpayNotifier);
  gw.families.register(vmqNotifier(gw.store));
  return gw;
}

export function openGateway(o: OpenOptions): Gateway {
  // A postgres:// or postgresql:// URL selects PostgreSQL; anything else is a SQLite file.
  const store = o.store ?? (isPostgresUrl(o.db) ? PostgresStore.open(o.db) : SqliteStore.open(o.db));
  return registerFamilies(new Gateway({ store, baseUrl: o.baseUrl ?? "http://127.0.0.1:8080", clock: o.clock, trustProxy: o.trustProxy, baseUrlExplicit: o.baseUrlExplicit }));
}

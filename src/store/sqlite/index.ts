// The bun:sqlite store. bun:sqlite is synchronous, so every unit runs to completion inside its
// transaction before the promise resolves; no transaction is ever held across an await.
import type { Database } from "bun:sqlite";
import type { BrowseStore } from "../../core/browse/store.ts";
import type { AlertStore } from "../../core/alerts/store.ts";
import { sqliteAlerts } from "./alerts.ts";
import { type FactsReader, factsReader } from "./facts-reader.ts";
import type { Directory, Store } from "../../core/store.ts";
import { MerchantCache } from "../merchant-cache.ts";
import { openDatabase } from "../db.ts";
import { SqliteAdminStore } from "./admin.ts";
import { migrate } from "../migrate.ts";
import * as channels from "./channels.ts";
import { removeChannel, saveChannel } from "./channel-admin.ts";
import { CandidatesInTransaction } from "./channels.ts";
import { inTransaction } from "./transaction.ts";
import { startCheckpointer } from "./checkpointer.ts";
import { assignReport } from "./assign-report.ts";
import { browseStore } from "./browse.ts";
import * as clients from "./clients.ts";
import { sqliteDevices } from "./devices.ts";
import { sqliteSlots } from "./slots.ts";
import type { DeviceStore } from "../../core/clients/store.ts";
import type { SlotStore } from "../../core/slots/store.ts";
import { SqliteDevStore } from "./dev.ts";
import * as merchants from "./merchants.ts";
import * as orders from "./orders.ts";
import * as outbox from "./outbox.ts";
import * as delivery from "./delivery.ts";
import { backupTo, probeWrite } from "./maintenance.ts";
import { checkIntegrity } from "./integrity.ts";
import { payOrder } from "./pay.ts";
import { settleReport } from "./report-match.ts";
import { listReportBounds } from "./report-bounds.ts";
import * as reports from "./reports.ts";
import * as refusals from "./refusals.ts";
import { pruneBatch } from "./retention.ts";
import { SqliteRules } from "./rules.ts";
import { SqliteStats } from "./stats.ts";
import * as keyed from "./keyed-clients.ts";
import { directoryReader } from "./directory.ts";


interface Queued {
  run(candidates: CandidatesInTransaction): unknown;
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

export class SqliteStore implements Store {
  constructor(readonly db: Database) {}

  #admin?: SqliteAdminStore;
  get admin(): SqliteAdminStore {
    return (this.#admin ??= new SqliteAdminStore(this.db));
  }

  private devStore: SqliteDevStore | null = null;
  get dev(): SqliteDevStore {
    return (this.devStore ??= new SqliteDevStore(this.db));
  }

  private browseView: BrowseStore | null = null;
  /** The operator's read side (core/browse/store.ts). */
  get browse(): BrowseStore {
    return (this.browseView ??= browseStore(this.db));
  }

  #alerts?: AlertStore;
  #facts?: FactsReader;
  /** Where the background's failures go once `serve` started it (startBackground's hooks). */
  #onBackgroundError?: (message: string) => void;
  /** Operator alerts (core/alerts/store.ts). */
  get alerts(): AlertStore {
    const onError = (message: string) => this.#onBackgroundError?.(message);
    return (this.#alerts ??= sqliteAlerts(this.db, (this.#facts = factsReader(this.db, { onError }))));
  }

  private statsStore: SqliteStats | null = null;
  /** Income figures and the gauges of /metrics (core/stats/store.ts). */
  get stats(): SqliteStats {
    return (this.statsStore ??= new SqliteStats(this.db));
  }

  private rulesStore: SqliteRules | null = null;
  /** Operator message rules and unrecognised payment-app messages (core/rules/store.ts). */
  get rules(): SqliteRules {
    return (this.rulesStore ??= new SqliteRules(this.db));
  }

  #slots?: SlotStore;
  /** Reserved payable amounts (core/slots/store.ts). */
  get slots(): SlotStore {
    return (this.#slots ??= sqliteSlots(this.db));
  }

  #devices?: DeviceStore;
  /** Monitoring clients' device history (core/clients/store.ts). */
  get devices(): DeviceStore {
    return (this.#devices ??= sqliteDevices(this.db));
  }

  private queue: Queued[] = [];
  /** The checkpoint thread rewinds the WAL (checkpointer.ts): units queue, nothing commits. */
  private held = false;

  /**
   * Group commit: write units queued in one turn of the event loop run one after another inside
   * one BEGIN IMMEDIATE ... COMMIT, each in its own savepoint (bun:sqlite nests a transaction as a
   * SAVEPOINT), so a unit that throws is rolled back alone. Every caller is answered after the
   * COMMIT, so a success is never reported for a write that is not committed.
   */
  private grouped<T>(run: (candidates: CandidatesInTransaction) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run, resolve: resolve as (v: unknown) => void, reject });
      if (this.queue.length === 1) setImmediate(() => this.flush());
    });
  }

  /** Write units queue and nothing commits until releaseWrites (the checkpoint thread rewinds the WAL). */
  holdWrites(): void {
    this.held = true;
  }

  releaseWrites(): void {
    this.held = false;
    if (this.queue.length > 0) setImmediate(() => this.flush());
  }

  private flush(): void {
    if (this.held || this.queue.length === 0) return; // releaseWrites() flushes what queued meanwhile
    const units = this.queue;
    this.queue = [];
    const outcomes: { ok: boolean; v: unknown }[] = [];
    const candidates = new CandidatesInTransaction();
    const started = performance.now();
    try {
      inTransaction(this.db, () => {
        for (const u of units) {
          try {
            outcomes.push({ ok: true, v: u.run(candidates) });
          } catch (e) {
            // SQLite rolled the whole transaction back under this unit, not its savepoint (a full
            // disk or an I/O error met where no statement journal could undo the statement alone):
            // the units before it are undone, and those after it must not run, each in autocommit
            // and committed, while the batch fails. Every unit is rejected (below).
            if (!this.db.inTransaction) throw e;
            candidates.forget();
            outcomes.push({ ok: false, v: e });
          }
        }
      });
    } catch (e) {
      for (const u of units) u.reject(e);
      return;
    }
    this.stats.wrote((performance.now() - started) / 1000);
    units.forEach((u, i) => (outcomes[i]!.ok ? u.resolve(outcomes[i]!.v) : u.reject(outcomes[i]!.v)));
  }

  static open(path: string): SqliteStore {
    const db = openDatabase(path);
    migrate(db);
    return new SqliteStore(db);
  }

  /** Merchants kept a second (store/merchant-cache.ts). */
  private readonly merchantCache = new MerchantCache();

  addMerchant: Store["addMerchant"] = async (m) => {
    this.merchantCache.clear();
    return merchants.addMerchant(this.db, m);
  };
  getMerchant: Store["getMerchant"] = (pid) => this.merchantCache.get(pid, () => merchants.getMerchant(this.db, pid));
  listMerchants: Store["listMerchants"] = () => this.merchantCache.list(() => merchants.listMerchants(this.db));
  updateMerchant: Store["updateMerchant"] = async (pid, patch) => {
    this.merchantCache.clear();
    return merchants.updateMerchant(this.db, pid, patch);
  };
  // From the rollup (migration 025): the merchants list reads it for every merchant, and counting a
  // merchant's orders one by one took ~12 ms each on a million orders.
  merchantOrderCounts: Store["merchantOrderCounts"] = async (pid, today) => {
    const [yesterday, day] = await this.stats.incomeByRange({ edges: [today - 86400, today, today + 86400], pid });
    return { total: merchants.merchantOrderTotal(this.db, pid), today: day!.created, yesterday: yesterday!.created };
  };

  getSettings: Store["getSettings"] = async () => {
    const rows = this.db.query("SELECT key, value FROM settings").all() as { key: string; value: string }[];
    return Object.fromEntries(rows.map((r) => [r.key, r.value]));
  };
  setSetting: Store["setSetting"] = async (key, value) => {
    this.db.query("INSERT INTO settings (key, value) VALUES ($key, $value) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run({ key, value });
  };
  initSetting: Store["initSetting"] = async (key, value) => {
    this.db.query("INSERT INTO settings (key, value) VALUES ($key, $value) ON CONFLICT (key) DO NOTHING").run({ key, value });
    return (this.db.query("SELECT value FROM settings WHERE key = $key").get({ key }) as { value: string }).value;
  };

  addChannel: Store["addChannel"] = async (c) => channels.addChannel(this.db, c);
  getChannel: Store["getChannel"] = async (id) => channels.getChannel(this.db, id);
  listChannels: Store["listChannels"] = async (f) => channels.listChannels(this.db, f);
  updateChannel: Store["updateChannel"] = async (id, patch) => channels.updateChannel(this.db, id, patch);
  saveChannel: Store["saveChannel"] = async (u) => saveChannel(this.db, u);
  removeChannel: Store["removeChannel"] = async (id) => removeChannel(this.db, id);

  createOrder: Store["createOrder"] = (u) => this.grouped((candidates) => orders.createOrder(this.db, u, candidates));
  chooseOrderPayType: Store["chooseOrderPayType"] = async (t, p, now, a) => orders.chooseOrderPayType(this.db, t, p, now, a);
  getOrder: Store["getOrder"] = async (t) => orders.getOrder(this.db, t);
  getOrderByOutTradeNo: Store["getOrderByOutTradeNo"] = async (pid, o) => orders.getOrderByOutTradeNo(this.db, pid, o);
  listOrders: Store["listOrders"] = async (f) => orders.listOrders(this.db, f);
  /** In the group commit with the reports: a cancel and a payment of one order race in the order they were asked for. */
  closeOrder: Store["closeOrder"] = (t, now) => this.grouped(() => orders.closeOrder(this.db, t, now));
  expireOrders: Store["expireOrders"] = async (now, tally) => orders.expireOrders(this.db, now, tally);

  payOrder: Store["payOrder"] = async (u) => payOrder(this.db, u);

  claimDueNotifications: Store["claimDueNotifications"] = async (now, limit, lease, fair) => outbox.claimDue(this.db, now, limit, lease, fair);
  // Acknowledgements join the group commit: the attempts that finish in one turn share one commit.
  recordNotificationAttempt: Store["recordNotificationAttempt"] = (id, o) => this.grouped(() => outbox.recordAttempt(this.db, id, o));
  requeueNotification: Store["requeueNotification"] = async (t, now) => outbox.requeue(this.db, t, now);
  getNotification: Store["getNotification"] = async (t) => outbox.getNotification(this.db, t);
  listNotifications: Store["listNotifications"] = async (f) => outbox.listNotifications(this.db, f);
  nextNotificationDue: Store["nextNotificationDue"] = async () => outbox.nextDue(this.db);
  deliveryHealth: Store["deliveryHealth"] = async (pid) => delivery.deliveryHealth(this.db, pid);
  failureGroups: Store["failureGroups"] = async (o) => delivery.failureGroups(this.db, o);
  requeueFailing: Store["requeueFailing"] = async (pid, now) => delivery.requeueFailing(this.db, pid, now);

  insertReport: Store["insertReport"] = async (r, nonce) => reports.insertReport(this.db, r, { nonce }) as { id: number; duplicate: boolean; replayed?: boolean };
  insertBoundedReport: Store["insertBoundedReport"] = async (r, bound, nonce) => reports.insertReport(this.db, r, { bound, nonce });
  listReportBounds: Store["listReportBounds"] = async (f) => listReportBounds(this.db, f);
  listReports: Store["listReports"] = async (f) => reports.listReports(this.db, f);
  /**
   * Reports join the group commit too (one commit for the reports of one turn). A payment moves its
   * account's paid sum for today, so the candidate accounts the creates of the same commit share
   * are read again after it.
   */
  settleReport: Store["settleReport"] = (u) =>
    this.grouped((candidates) => {
      const settled = settleReport(this.db, u, this.keptDirectory);
      if (settled.pay?.kind === "paid") candidates.forget();
      return settled;
    });
  assignReport: Store["assignReport"] = async (u) => assignReport(this.db, u);
  insertRefusal: Store["insertRefusal"] = async (r, limits) => refusals.insertRefusal(this.db, r, limits);
  listRefusalCounts: Store["listRefusalCounts"] = async (f) => refusals.listRefusalCounts(this.db, f.limit ?? 20);
  pruneHistory: Store["pruneHistory"] = async (b) => pruneBatch(this.db, b);

  /** Each accepted report's heartbeat: in the group commit with the report itself. */
  recordClientSeen: Store["recordClientSeen"] = (c, ids, history, o) => this.grouped(() => clients.recordClientSeen(this.db, c, ids, history, o));
  listClients: Store["listClients"] = async () => clients.listClients(this.db);

  addKeyedClient: Store["addKeyedClient"] = async (c) => keyed.addKeyedClient(this.db, c);
  listKeyedClients: Store["listKeyedClients"] = async () => keyed.listKeyedClients(this.db);
  #directory?: () => Directory;
  /** One kept directory for the reports' authentication and their settlement (report-match.ts). */
  private readonly keptDirectory = () => (this.#directory ??= directoryReader(this.db))();
  directory: Store["directory"] = async () => this.keptDirectory();
  getKeyedClient: Store["getKeyedClient"] = async (id) => keyed.getKeyedClient(this.db, id);
  bindKeyedClient: Store["bindKeyedClient"] = async (id, accounts) => keyed.bindKeyedClient(this.db, id, accounts);
  removeKeyedClient: Store["removeKeyedClient"] = async (id) => keyed.removeKeyedClient(this.db, id);
  refreshReportGroups: Store["refreshReportGroups"] = async (rule) => keyed.refreshReportGroups(this.db, rule);
  acceptVmqHeart: Store["acceptVmqHeart"] = async (id, t, now) => keyed.acceptVmqHeart(this.db, id, t, now);
  recordVmqPush: Store["recordVmqPush"] = async (id, now) => keyed.recordVmqPush(this.db, id, now);

  probeWrite: Store["probeWrite"] = async () => probeWrite(this.db);
  backupTo: Store["backupTo"] = async (path) => backupTo(this.db, path);
  checkIntegrity: NonNullable<Store["checkIntegrity"]> = (o) => checkIntegrity(this.db, o);
  startBackground: NonNullable<Store["startBackground"]> = (hooks) => {
    this.#onBackgroundError = hooks.onError;
    return startCheckpointer(this.db, {
      onBeat: () => hooks.onBeat("checkpointer"),
      onError: hooks.onError,
      hold: { pause: () => this.holdWrites(), resume: () => this.releaseWrites() },
    });
  };

  close(): void {
    this.#facts?.close();
    this.db.close();
  }
}

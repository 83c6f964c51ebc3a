// The PostgreSQL store (issue 20): the same port as the SQLite store, for several xpay instances on
// one database. Each unit is one transaction on a pooled connection; what SQLite's single writer
// serialized is serialized here by row locks and advisory locks (see each flow's file), and the
// core's synchronous rules run through replay.ts. Each sub-port is a file of its own beside the flows.
import { SQL } from "bun";
import type { Store } from "../../core/store.ts";
import { directoryReader, type PgDirectory } from "./directory.ts";
import { MerchantCache } from "../merchant-cache.ts";
import { PostgresAdminStore } from "./admin.ts";
import { postgresAlerts } from "./alerts.ts";
import { assignReport } from "./assign-report.ts";
import { browseStore } from "./browse.ts";
import { removeChannel, saveChannel } from "./channel-admin.ts";
import * as channels from "./channels.ts";
import { BeatWriter } from "./beats.ts";
import * as clients from "./clients.ts";
import { postgresDev } from "./dev.ts";
import { postgresDevices } from "./devices.ts";
import { backupToSqlite } from "./backup.ts";
import { probeWrite } from "./maintenance.ts";
import { startRollupFold } from "./rollup-fold.ts";
import * as merchants from "./merchants.ts";
import { openBeatPool, openPool, type PoolAccess } from "./open.ts";
import * as orders from "./orders.ts";
import { CallShare, createCallBudget } from "./call-share.ts";
import { CreateBatches } from "./create-batch.ts";
import * as delivery from "./delivery.ts";
import * as outbox from "./outbox.ts";
import { ackQueue } from "./acks.ts";
import { payOrder } from "./pay.ts";
import * as refusals from "./refusals.ts";
import { settleReport } from "./report-match.ts";
import { listReportBounds } from "./report-bounds.ts";
import * as reports from "./reports.ts";
import { PostgresStats } from "./stats.ts";
import { pruneBatch } from "./retention.ts";
import { postgresRules } from "./rules.ts";
import { postgresSlots } from "./slots.ts";
import * as keyed from "./keyed-clients.ts";


export class PostgresStore implements Store {
  /**
   * Settled once the server answered and the schema is checked (and, for a writer, migrated).
   * Every unit waits for it, so opening stays synchronous for the CLI and the first unit reports a
   * connection or schema problem. `timezone` is the stored setting, for the CLI's times.
   */
  readonly ready: Promise<{ version: number; timezone: string | undefined }>;
  readonly admin: Store["admin"];
  readonly browse: Store["browse"];
  readonly stats: Store["stats"];
  readonly alerts: Store["alerts"];
  readonly rules: Store["rules"];
  readonly slots: Store["slots"];
  readonly dev: Store["dev"];
  readonly devices: Store["devices"];

  private readonly beats: SQL;
  /** The beats waiting for the next call (beats.ts); `stats` for the tests and benches. */
  readonly beatWriter: BeatWriter;

  private constructor(private readonly sql: SQL, private readonly url: string, ready: Promise<{ version: number; timezone: string | undefined }>) {
    const db = () => this.db();
    this.admin = new PostgresAdminStore(db);
    this.browse = browseStore(db);
    this.stats = this.writes;
    this.alerts = postgresAlerts(db);
    this.rules = postgresRules(db);
    this.slots = postgresSlots(db);
    this.dev = postgresDev(db);
    this.devices = postgresDevices(db);
    this.creates = new CreateBatches(db, new CallShare(db, createCallBudget(url)));
    this.beats = openBeatPool(url);
    this.beatWriter = new BeatWriter(this.beats);
    this.ready = ready;
    ready.catch(() => {}); // the unit that awaits it reports the failure
  }

  /** Connects lazily; `access` as the CLI decides it (database.ts accessOf). */
  static open(url: string, o: { access?: PoolAccess; max?: number } = {}): PostgresStore {
    const { sql, ready } = openPool(url, o.access ?? "write", o.max);
    return new PostgresStore(sql, url, ready);
  }

  private async db(): Promise<SQL> {
    await this.ready;
    return this.sql;
  }

  private readonly merchantCache = new MerchantCache();
  /** store.stats, which also times the create and pay units for observeWrites (/metrics). */
  private readonly writes = new PostgresStats(() => this.db());

  addMerchant: Store["addMerchant"] = async (m) => {
    this.merchantCache.clear();
    return merchants.addMerchant(await this.db(), m);
  };
  /** Kept a second, as on SQLite (store/merchant-cache.ts): a change on another instance is seen within it. */
  getMerchant: Store["getMerchant"] = (pid) => this.merchantCache.get(pid, async () => merchants.getMerchant(await this.db(), pid));
  listMerchants: Store["listMerchants"] = () => this.merchantCache.list(async () => merchants.listMerchants(await this.db()));
  updateMerchant: Store["updateMerchant"] = async (pid, patch) => {
    this.merchantCache.clear();
    return merchants.updateMerchant(await this.db(), pid, patch);
  };
  // From the rollup (migration 025), as on SQLite.
  merchantOrderCounts: Store["merchantOrderCounts"] = async (pid, today) => {
    const [yesterday, day] = await this.stats.incomeByRange({ edges: [today - 86400, today, today + 86400], pid });
    return { total: await merchants.merchantOrderTotal(await this.db(), pid), today: day!.created, yesterday: yesterday!.created };
  };

  getSettings: Store["getSettings"] = async () => merchants.getSettings(await this.db());
  setSetting: Store["setSetting"] = async (key, value) => merchants.setSetting(await this.db(), key, value);
  initSetting: Store["initSetting"] = async (key, value) => merchants.initSetting(await this.db(), key, value);

  addChannel: Store["addChannel"] = async (c) => channels.addChannel(await this.db(), c);
  getChannel: Store["getChannel"] = async (id) => channels.getChannel(await this.db(), id);
  listChannels: Store["listChannels"] = async (f) => channels.listChannels(await this.db(), f);
  updateChannel: Store["updateChannel"] = async (id, patch) => channels.updateChannel(await this.db(), id, patch);
  saveChannel: Store["saveChannel"] = async (u) => saveChannel(await this.db(), u);
  removeChannel: Store["removeChannel"] = async (id) => removeChannel(await this.db(), id);

  /** Creates go to the server in batches, one commit each (create-batch.ts). */
  private readonly creates: CreateBatches;
  createOrder: Store["createOrder"] = (u) => this.writes.timed(() => this.creates.create(u));
  chooseOrderPayType: Store["chooseOrderPayType"] = async (t, p, now, a) => orders.chooseOrderPayType(await this.db(), t, p, now, a);
  getOrder: Store["getOrder"] = async (t) => orders.getOrder(await this.db(), t);
  getOrderByOutTradeNo: Store["getOrderByOutTradeNo"] = async (pid, o) => orders.getOrderByOutTradeNo(await this.db(), pid, o);
  listOrders: Store["listOrders"] = async (f) => orders.listOrders(await this.db(), f);
  closeOrder: Store["closeOrder"] = async (t, now) => orders.closeOrder(await this.db(), t, now);
  expireOrders: Store["expireOrders"] = async (now, tally) => orders.expireOrders(await this.db(), now, tally);

  payOrder: Store["payOrder"] = async (u) => this.writes.timed(async () => payOrder(await this.db(), u));

  claimDueNotifications: Store["claimDueNotifications"] = async (now, limit, lease, fair) => outbox.claimDue(await this.db(), now, limit, lease, fair);
  /** Batched: the attempts that finish while one batch is written share the next one's transaction (acks.ts). */
  recordNotificationAttempt: Store["recordNotificationAttempt"] = ackQueue(() => this.db(), (work) => this.writes.timed(work));
  requeueNotification: Store["requeueNotification"] = async (t, now) => outbox.requeue(await this.db(), t, now);
  getNotification: Store["getNotification"] = async (t) => outbox.getNotification(await this.db(), t);
  listNotifications: Store["listNotifications"] = async (f) => outbox.listNotifications(await this.db(), f);
  nextNotificationDue: Store["nextNotificationDue"] = async () => outbox.nextDue(await this.db());
  deliveryHealth: Store["deliveryHealth"] = async (pid) => delivery.deliveryHealth(await this.db(), pid);
  failureGroups: Store["failureGroups"] = async (o) => delivery.failureGroups(await this.db(), o);
  requeueFailing: Store["requeueFailing"] = async (pid, now) => delivery.requeueFailing(await this.db(), pid, now);

  insertReport: Store["insertReport"] = async (r, nonce) => (await reports.insertReport(await this.db(), r, { nonce })) as { id: number; duplicate: boolean; replayed?: boolean };
  insertBoundedReport: Store["insertBoundedReport"] = async (r, bound, nonce) => reports.insertReport(await this.db(), r, { bound, nonce });
  listReportBounds: Store["listReportBounds"] = async (f) => listReportBounds(await this.db(), f);
  listReports: Store["listReports"] = async (f) => reports.listReports(await this.db(), f);
  settleReport: Store["settleReport"] = async (u) => this.writes.timed(async () => settleReport(await this.db(), u, this.keptDirectory));
  assignReport: Store["assignReport"] = async (u) => assignReport(await this.db(), u);
  insertRefusal: Store["insertRefusal"] = async (r, limits) => refusals.insertRefusal(await this.db(), r, limits);
  listRefusalCounts: Store["listRefusalCounts"] = async (f) => refusals.listRefusalCounts(await this.db(), f.limit ?? 20);
  pruneHistory: Store["pruneHistory"] = async (b) => pruneBatch(await this.db(), b);

  /** With the other beats waiting, on the beats' pool, whose commits do not wait for their flush (beats.ts, open.ts openBeatPool). */
  recordClientSeen: Store["recordClientSeen"] = async (client, accountIds, history, o = {}) => {
    await this.ready;
    return this.beatWriter.add({ client, accountIds, history, o });
  };
  listClients: Store["listClients"] = async () => clients.listClients(await this.db());

  addKeyedClient: Store["addKeyedClient"] = async (c) => keyed.addKeyedClient(await this.db(), c);
  listKeyedClients: Store["listKeyedClients"] = async () => keyed.listKeyedClients(await this.db());
  #directory?: PgDirectory;
  /** One kept directory for the reports' authentication and their settlement (report-match.ts). */
  private get keptDirectory(): PgDirectory {
    return (this.#directory ??= directoryReader(() => this.db()));
  }
  directory: Store["directory"] = () => this.keptDirectory.read();
  getKeyedClient: Store["getKeyedClient"] = async (id) => keyed.getKeyedClient(await this.db(), id);
  bindKeyedClient: Store["bindKeyedClient"] = async (id, accounts) => keyed.bindKeyedClient(await this.db(), id, accounts);
  removeKeyedClient: Store["removeKeyedClient"] = async (id) => keyed.removeKeyedClient(await this.db(), id);
  refreshReportGroups: Store["refreshReportGroups"] = async (rule) => keyed.refreshReportGroups(await this.db(), rule);
  acceptVmqHeart: Store["acceptVmqHeart"] = async (id, t, now) => keyed.acceptVmqHeart(await this.db(), id, t, now);
  recordVmqPush: Store["recordVmqPush"] = async (id, now) => keyed.recordVmqPush(await this.db(), id, now);

  probeWrite: Store["probeWrite"] = async () => probeWrite(await this.db());
  /** The income rollup's fold, once a second (rollup-fold.ts, migration 039). */
  startBackground: NonNullable<Store["startBackground"]> = (hooks) =>
    startRollupFold(() => this.db(), { onBeat: () => hooks.onBeat("rollup"), onError: hooks.onError });
  /** A SQLite file holding one snapshot of every table (backup.ts). */
  backupTo: Store["backupTo"] = async (path) => {
    await this.ready;
    await backupToSqlite(this.url, path);
  };

  /** Store.close is synchronous; the pool closes in the background. `end` waits for it. */
  close(): void {
    this.end().catch(() => {}); // closing twice, or a pool that never connected
  }

  async end(): Promise<void> {
    await Promise.all([this.sql.close({ timeout: 5 }), this.beats.close({ timeout: 5 })]);
  }
}

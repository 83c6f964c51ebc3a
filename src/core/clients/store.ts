// Device history of monitoring clients (issue 22): a sub-port of Store (`store.devices`). Beats are
// recorded by Store.recordClientSeen, in the same transaction that marks the client seen, as online
// stretches (beats each within `gap` of the one before; a row per stretch, not per beat); these
// reads serve the console's clients pages and the retention prune.
import type { MonitorClient, StoredReport } from "../store.ts";

/** A stretch of beats, each within the heartbeat timeout (as it was when they came) of the one before. */
export interface OnlineInterval {
  /** First and last beat (unix seconds). */
  startAt: number;
  endAt: number;
  beats: number;
}

/** Whose reports: a phone's (pid, client name), a watcher's (pid null) or a V免签 app's. */
export interface ClientReportQuery {
  pid: number | null;
  name: string;
  kinds: readonly string[];
  /** Only messages stored as not a payment (no rule read them). */
  unread?: boolean;
  /** Rows newer than this id (what a polling page has not shown yet). */
  afterId?: number;
  limit: number;
}

export interface DeviceStore {
  getClient(id: number): Promise<MonitorClient | null>;
  /** Stretches that ended at or after `since` (the current one included), oldest first; at most `limit` finished ones (the newest). */
  onlineIntervals(clientId: number, since: number, limit: number): Promise<OnlineInterval[]>;
  /** A client's payment reports (never heartbeats), newest first. */
  clientReports(q: ClientReportQuery): Promise<StoredReport[]>;
  /** Every report a merchant's clients sent since `since` (heartbeats and refusals too), newest first. */
  merchantReports(pid: number, o: { since: number; afterId?: number; limit: number }): Promise<StoredReport[]>;
  /** Deletes up to `batch` finished stretches that ended before `before`; returns how many. */
  pruneIntervals(before: number, batch: number): Promise<number>;
}

// A report's heartbeat on PostgreSQL (Store.recordClientSeen), written together with the others
// that wait: one call of migration 045's xpay_clients_seen in flight per instance, and the beats
// that come while it runs go in the next one (a group commit: the busier the instance, the more
// beats a call carries; alone, a beat is written at once as before). Each caller's promise settles
// when the call that carried its beat committed, so a beat is read back as soon as it was awaited.
// A call that fails is retried one client's beats at a time, so one beat that cannot be written
// never fails the others' reports. The calls run on the beats' pool (open.ts openBeatPool).
import type { SQL } from "bun";
import type { MonitorClient, SeenOptions } from "../../core/store.ts";
import { retried } from "./tx.ts";

export interface Beat {
  client: Omit<MonitorClient, "id">;
  accountIds: number[];
  history?: { gap: number };
  o: SeenOptions;
}

interface Waiting {
  beat: Beat;
  resolve: () => void;
  reject: (e: unknown) => void;
}

/** One element of xpay_clients_seen's beats: `n` beats of one client in one second. */
interface Merged {
  kind: string;
  pid: number;
  name: string;
  channel: number | null;
  ext: string;
  seen: number;
  n: number;
  history: boolean;
  gap: number;
  only_listed: boolean;
}

/** Beats a call carries at most (the rest wait for the next). */
const MAX_BEATS = 512;

const clientKey = (c: Omit<MonitorClient, "id">) => JSON.stringify([c.kind, c.pid, c.name]);

/**
 * The call's arguments for `beats` (in arrival order): the clients' beats sorted by client (the
 * order their rows are locked in), each client's in arrival order, and a run of one client's beats
 * in one second with the same options merged into one element (as n beats one after another write:
 * 045's header); every named account with the latest second naming it, by id.
 */
export function mergeBeats(beats: Beat[]): { beats: Merged[]; accounts: number[]; seen: number[] } {
  const byClient = new Map<string, Beat[]>();
  for (const b of beats) {
    const k = clientKey(b.client);
    const list = byClient.get(k);
    if (list) list.push(b);
    else byClient.set(k, [b]);
  }
  const merged: Merged[] = [];
  for (const k of [...byClient.keys()].sort()) {
    let last: Merged | undefined;
    for (const { client: c, history, o } of byClient.get(k)!) {
      const only = o.onlyListed === true;
      const gap = history?.gap ?? 0;
      if (last && last.seen === c.lastSeenAt && last.history === (history !== undefined) && last.gap === gap && gap >= 0 && last.only_listed === only) {
        last.n++;
        // What the later of two upserts leaves: its channel unless it names none, its data unless empty.
        if (c.channelId !== null) last.channel = c.channelId;
        if (c.extData !== "") last.ext = c.extData;
        continue;
      }
      last = { kind: c.kind, pid: c.pid, name: c.name, channel: c.channelId, ext: c.extData, seen: c.lastSeenAt, n: 1, history: history !== undefined, gap, only_listed: only };
      merged.push(last);
    }
  }
  const latest = new Map<number, number>();
  for (const b of beats) {
    for (const raw of b.accountIds) {
      const id = Math.trunc(raw);
      latest.set(id, Math.max(latest.get(id) ?? -Infinity, b.client.lastSeenAt));
    }
  }
  const accounts = [...latest.keys()].sort((a, b) => a - b);
  return { beats: merged, accounts, seen: accounts.map((id) => latest.get(id)!) };
}

export class BeatWriter {
  private queue: Waiting[] = [];
  private writing = false;
  /** Beats written and calls made (tests and benches read them). */
  readonly stats = { beats: 0, calls: 0 };

  constructor(private readonly sql: SQL) {}

  add(beat: Beat): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ beat, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0) await this.write(this.queue.splice(0, MAX_BEATS));
    } finally {
      this.writing = false;
    }
  }

  private async write(batch: Waiting[]): Promise<void> {
    try {
      await this.call(batch.map((w) => w.beat));
      for (const w of batch) w.resolve();
      return;
    } catch (e) {
      if (batch.length === 1) {
        batch[0]!.reject(e);
        return;
      }
    }
    // Each client's beats alone: only the ones that cannot be written fail.
    const byClient = new Map<string, Waiting[]>();
    for (const w of batch) {
      const k = clientKey(w.beat.client);
      byClient.set(k, [...(byClient.get(k) ?? []), w]);
    }
    for (const group of byClient.values()) {
      try {
        await this.call(group.map((w) => w.beat));
        for (const w of group) w.resolve();
      } catch (e) {
        for (const w of group) w.reject(e);
      }
    }
  }

  private async call(beats: Beat[]): Promise<void> {
    const m = mergeBeats(beats);
    this.stats.calls++;
    await retried(() => this.sql`SELECT xpay_clients_seen(${JSON.stringify(m.beats)}::text::jsonb, ${m.accounts}::bigint[], ${m.seen}::bigint[])`);
    this.stats.beats += beats.length;
  }
}

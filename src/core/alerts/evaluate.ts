// One evaluation pass: read the facts and the new events, apply the rules (plan.ts), and write the
// instance changes, the outbox rows (one per message and channel) and the cursors in one unit.
// The database write probe is the exception: when the database refuses writes the outbox cannot
// take a row either, so that alert goes straight to the channels from memory (throttled here), and
// its "resolved" goes through the outbox once writes work again.
import type { Gateway } from "../gateway.ts";
import { backupFinding, backupStatus } from "../backup-status.ts";
import { startOfDay } from "../ids.ts";
import { fromSenders } from "../rules/unparsed.ts";
import { sendThrough, type SendOptions } from "./channels/send.ts";
import { stateFindings } from "./conditions.ts";
import { eventFindings } from "./events.ts";
import { plan } from "./plan.ts";
import { firingMessage, type RenderContext, resolvedMessage } from "./render.ts";
import { thresholds, type Thresholds } from "./settings.ts";
import type { AlertChannel, AlertFacts } from "./store.ts";
import type { Finding } from "./types.ts";

/** Rows per list a pass reads at most; events past it are read by the next pass. */
export const PASS_LIMIT = 500;
const HOUR = 3600;

interface DbAlert {
  since: number;
  sentAt: number | null;
  error: string;
}

// Per gateway, in memory: what must work while the database does not.
const dbAlerts = new WeakMap<Gateway, DbAlert>();
const lastChannels = new WeakMap<Gateway, AlertChannel[]>();

export interface PassResult {
  /** Messages queued (or, for a failing database, sent directly). */
  messages: number;
  db: "ok" | "failing";
}

function dbFinding(gw: Gateway, a: DbAlert): Finding {
  return {
    key: "db_write:database", condition: "db_write", title: "The database refuses writes", since: a.since, refs: {},
    detail: `The write probe fails: ${a.error}. Orders, payments and notifications cannot be stored (a full disk, a read-only file or mount, a damaged file).`,
    command: `df -h; ls -l <the xpay.db file>; curl -s ${gw.baseUrl}/healthz`,
  };
}

/** The probe failed: tell every channel directly, at most once per throttle interval. */
async function databaseFailing(gw: Gateway, e: unknown, t: Thresholds, render: RenderContext, o: Omit<SendOptions, "nowMs">): Promise<PassResult> {
  const now = gw.clock.now();
  const a = dbAlerts.get(gw) ?? { since: now, sentAt: null, error: "" };
  a.error = (e instanceof Error ? e.message : String(e)).slice(0, 200);
  dbAlerts.set(gw, a);
  if (a.sentAt !== null && now - a.sentAt < t.throttle) return { messages: 0, db: "failing" };
  const channels = await gw.store.alerts.listChannels().then((c) => c.filter((x) => x.enabled), () => lastChannels.get(gw) ?? []);
  if (channels.length === 0) return { messages: 0, db: "failing" };
  const message = firingMessage(dbFinding(gw, a), render);
  const sent = await Promise.all(channels.map((c) => sendThrough(c, message, { ...o, nowMs: render.nowMs })));
  a.sentAt = now;
  for (const [i, r] of sent.entries()) gw.log.error("alert.direct", { channel: channels[i]!.name, event: "firing", key: message.key, ok: r.ok, error: r.error });
  return { messages: channels.length, db: "failing" };
}

export async function evaluateAlerts(gw: Gateway, o: Omit<SendOptions, "nowMs"> = {}): Promise<PassResult> {
  const s = await gw.settings();
  const t = thresholds(s);
  const nowMs = gw.clock.nowMs();
  const now = Math.floor(nowMs / 1000);
  const render: RenderContext = { nowMs, timeZone: s.str("timezone") };
  if (t.dbWrite) {
    try {
      await gw.store.probeWrite();
    } catch (e) {
      return databaseFailing(gw, e, t, render, o);
    }
  }
  const alerts = gw.store.alerts;
  const channels = (await alerts.listChannels()).filter((c) => c.enabled);
  lastChannels.set(gw, channels);
  const stored = await alerts.readFacts({
    now, minAttempts: Math.max(1, t.notifyFailures), deliveredSince: nowMs - t.merchantFailingMin * 60_000,
    createdSince: now - t.createWindow, limit: PASS_LIMIT,
  });
  // The rules' table, which `xpay rules unparsed` lists: one source for what the alert counts.
  const facts: AlertFacts = {
    ...stored,
    unrecognised: t.unparsed > 0 ? await fromSenders(gw, { since: now - HOUR }) : [],
    atBound: t.reportBound > 0 ? await gw.store.listReportBounds({ sinceDay: startOfDay(now), minStored: t.reportBound, limit: PASS_LIMIT }) : [],
  };
  const events = await alerts.readEvents(PASS_LIMIT);
  const state = stateFindings(facts, t, now);
  // serve's backup schedule (server/backup-loop.ts) is this process's own: evaluated only where it runs.
  const backups = backupStatus(gw);
  if (backups) {
    const finding = backupFinding(backups);
    if (finding) state.findings.push(finding);
    state.evaluated.push("backup_failed");
  }
  const found = eventFindings(events, t);
  const active = await alerts.activeInstances();
  const activeKeys = new Set(active.map((i) => i.key));
  const previous = await alerts.getInstances([...state.findings, ...found].map((f) => f.key).filter((k) => !activeKeys.has(k)));
  const p = plan({ now, throttle: t.throttle, haveChannels: channels.length > 0, state, events: found, active, previous, render });
  const db = dbAlerts.get(gw);
  if (db) {
    dbAlerts.delete(gw);
    if (db.sentAt !== null && channels.length > 0) p.messages.push(resolvedMessage(dbFinding(gw, db), db.since, render));
  }
  await alerts.applyPass({ instances: p.instances, messages: p.messages.map((message) => ({ message, channels })), cursors: events.cursors, nowMs });
  return { messages: p.messages.length * channels.length, db: "ok" };
}

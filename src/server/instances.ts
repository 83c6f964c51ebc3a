// Which `xpay serve` processes run on this database, so a second one says so at start. Two servers
// on one file are safe (the outbox is claimed under leases, every write unit is a transaction),
// and a restart without downtime needs them for a moment; but a forgotten one (an old binary
// still running after an upgrade, a test server on the production file) should not go unseen.
// The list is one setting row; each server beats into it, and a crashed one ages out.
import { hostname } from "node:os";
import type { Gateway } from "../core/gateway.ts";

const KEY = "serve_instances";
const BEAT_MS = 30_000;
/** An entry of another host (a container on the same volume) counts as alive this long after its beat. */
const STALE_MS = 3 * BEAT_MS;

export interface Instance {
  pid: number;
  host: string;
  port: number;
  started: number;
  seen: number;
}

function alive(i: Instance, now: number): boolean {
  if (i.host !== hostname()) return now - i.seen < STALE_MS;
  if (i.pid === process.pid) return false; // an entry of an earlier run under our own pid is stale
  try {
    process.kill(i.pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === "EPERM"; // alive, another user's process
  }
}

/** The servers of a stored list that run now (`xpay restore` reads it too: never under a running serve). */
export function liveInstances(stored: string | undefined, now = Date.now()): Instance[] {
  let list: unknown;
  try {
    list = JSON.parse(stored ?? "[]");
  } catch {
    list = [];
  }
  return (Array.isArray(list) ? (list as Instance[]) : []).filter((i) => typeof i?.pid === "number" && typeof i.host === "string" && alive(i, now));
}

export const INSTANCES_KEY = KEY;

async function others(gw: Gateway, now: number): Promise<Instance[]> {
  return liveInstances((await gw.store.getSettings())[KEY], now);
}

export interface Registration {
  /** Other servers on this database that are running now. */
  others: Instance[];
  stop(): Promise<void>;
}

/** Adds this server to the list; returns the others and a stop() that removes it again. */
export async function registerInstance(gw: Gateway, port: number): Promise<Registration> {
  const me: Instance = { pid: process.pid, host: hostname(), port, started: Date.now(), seen: Date.now() };
  const write = async (list: Instance[]) => gw.store.setSetting(KEY, JSON.stringify(list));
  const found = await others(gw, me.seen);
  await write([...found, me]);
  const beat = setInterval(() => {
    me.seen = Date.now();
    others(gw, me.seen)
      .then((list) => write([...list, me]))
      .catch((e) => gw.log.error("serve.instances", { error: e instanceof Error ? e.message : String(e) }));
  }, BEAT_MS);
  beat.unref();
  return {
    others: found,
    async stop() {
      clearInterval(beat);
      await write(await others(gw, Date.now())).catch(() => {});
    },
  };
}

/** `shared`: a database made for several instances (PostgreSQL), where another one is the plan, not a surprise. */
export function secondInstanceMessage(i: Instance, when: string, shared = false): string {
  const where = i.host === hostname() ? `pid ${i.pid} on this host` : `pid ${i.pid} on host ${i.host}`;
  if (shared) return `another xpay serve runs on this database (${where}, port ${i.port}, started ${when}): they share the payments and the notification work`;
  return `another xpay serve runs on this database (${where}, port ${i.port}, started ${when}): both take payments and share the notification work, which is safe and what a restart without downtime needs; stop one if this was not intended`;
}

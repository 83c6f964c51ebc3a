// The notify_url policy. With `notify_block_private` (setting) or `serve --notify-block-private`,
// notifications never go to private, loopback, link-local, reserved or this server's own addresses,
// in any IPv6 spelling that embeds one (address.ts). Some classes (link-local, i.e. cloud metadata,
// 0.0.0.0/8, multicast) are refused whatever the setting. Checked at create time on the URL's
// literal host and what its name resolves to then (the gateway's resolver, gw.lookup), and before
// each delivery on every address the name resolves to; the delivery then
// connects to the address that was checked (pinTarget), so a DNS answer that changes between the
// check and the connection (rebinding) cannot move it.
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import type { Gateway } from "../gateway.ts";
import { classifyAddress } from "./address.ts";

export { isPrivateAddress } from "./address.ts";

const forced = new WeakSet<Gateway>();
const NO_ADDRESSES: ReadonlySet<string> = new Set();

/** `serve --notify-block-private`: the policy is on for this gateway whatever the setting says. */
export function forceBlockPrivate(gw: Gateway): void {
  forced.add(gw);
}

export async function blockPrivateOn(gw: Gateway): Promise<boolean> {
  return forced.has(gw) || (await gw.settings()).str("notify_block_private") === "1";
}

/** Resolves a name to its addresses (tests inject one on the gateway: gw.lookup). */
export type Lookup = (host: string) => Promise<{ address: string }[]>;
/** A name that does not resolve within this time fails the attempt (retried on the schedule). */
export const LOOKUP_TIMEOUT_MS = 10_000;
/** At create the lookup is on the request path: a slower answer lets the create through (below). */
export const CREATE_LOOKUP_TIMEOUT_MS = 2_000;

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

export const systemLookup: Lookup = (host) => withTimeout(dnsLookup(host, { all: true }), LOOKUP_TIMEOUT_MS);

function parse(url: string): URL | null {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u : null;
  } catch {
    return null;
  }
}

/** The host as a resolver reads it: no brackets, lower case, no trailing dot (`LOCALHOST.` is localhost). */
const bare = (u: URL) => u.hostname.replace(/^\[|\]$/g, "").replace(/\.+$/, "").toLowerCase();

function refusal(address: string, blockPrivate: boolean, named: string): string | null {
  // With the policy off only the floor counts, and this server's own addresses are never floor: no
  // need to read the interfaces for every delivery.
  const c = classifyAddress(address, blockPrivate ? undefined : NO_ADDRESSES);
  if (!c || (!c.floor && !blockPrivate)) return null;
  const rule = c.floor ? "never a notification target" : "refused by notify_block_private";
  return `notify_url ${named}${address}, a private or reserved address (${c.why}), ${rule}`;
}

const NOT_A_URL = "notify_url is not a valid http(s) URL";

/** The literal host of a parsed notify_url (no DNS). Null when allowed. */
function hostProblem(host: string, blockPrivate: boolean): string | null {
  if (blockPrivate && (host === "localhost" || host.endsWith(".localhost"))) {
    return "notify_url points to localhost, a private (loopback) address refused by notify_block_private";
  }
  return isIP(host) ? refusal(host, blockPrivate, "points to ") : null;
}

/** The literal host only (no DNS). Null when allowed. */
export function literalTargetProblem(url: string, blockPrivate = true): string | null {
  const u = parse(url);
  return u ? hostProblem(bare(u), blockPrivate) : NOT_A_URL;
}

/**
 * Create time, with the policy on: the literal host, then what the name resolves to now, so a
 * public name that points to loopback or a private network (`127.0.0.1.nip.io`) is refused when
 * the merchant sends it, not only at each delivery. A name that does not resolve, or not within
 * CREATE_LOOKUP_TIMEOUT_MS, is let through: delivery resolves again and refuses then, and a shop's
 * DNS hiccup must not stop its orders. Null when allowed.
 */
export async function createTargetProblem(url: string, lookup: Lookup): Promise<string | null> {
  const literal = literalTargetProblem(url, true);
  if (literal) return literal;
  const host = bare(parse(url)!);
  if (isIP(host)) return null;
  let addresses: string[];
  try {
    addresses = (await withTimeout(lookup(host), CREATE_LOOKUP_TIMEOUT_MS)).map((a) => a.address);
  } catch {
    return null;
  }
  for (const a of addresses) {
    const refused = refusal(a, true, `${host} resolves to `);
    if (refused) return refused;
  }
  return null;
}

/** Where one delivery connects: the checked address, with the merchant's name kept for HTTP and TLS. */
export interface PinnedTarget {
  /** The notify_url with its host replaced by the checked address. */
  url: string;
  address: string;
  /** The Host header: the notify_url's own host (and port). */
  host: string;
  /** TLS server name (SNI and certificate check) for an https URL with a DNS name. */
  serverName?: string;
}

/**
 * Delivery time: resolve the name once, refuse when any resolved address is refused (an attacker
 * who controls the DNS answer picks which one a client would use), and pin the connection to one
 * checked address, IPv4 first (merchant servers on one VPS often listen on IPv4 only).
 */
export async function pinTarget(url: string, blockPrivate: boolean, lookup: Lookup = systemLookup): Promise<{ problem: string } | { target: PinnedTarget }> {
  const u = parse(url);
  if (!u) return { problem: NOT_A_URL };
  const host = bare(u);
  const literal = hostProblem(host, blockPrivate);
  if (literal) return { problem: literal };
  // A literal address was checked just now and is its own pin: the URL as it is.
  if (isIP(host)) return { target: { url: u.href, address: host, host: u.host } };
  let addresses: string[];
  try {
    addresses = (await lookup(host)).map((a) => a.address);
  } catch (e) {
    return { problem: `cannot resolve ${host}: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (addresses.length === 0) return { problem: `cannot resolve ${host}: no address` };
  for (const a of addresses) {
    const refused = refusal(a, blockPrivate, `${host} resolves to `);
    if (refused) return { problem: refused };
  }
  const address = addresses.find((a) => isIP(a) === 4) ?? addresses[0]!;
  const pinned = new URL(u);
  pinned.hostname = isIP(address) === 6 ? `[${address}]` : address;
  return { target: { url: pinned.toString(), address, host: u.host, ...(u.protocol === "https:" ? { serverName: host } : {}) } };
}

/** The check alone (null when every resolved address is allowed); kept for callers that only ask. */
export async function resolvedTargetProblem(url: string, lookup?: Lookup): Promise<string | null> {
  const r = await pinTarget(url, true, lookup);
  return "problem" in r ? r.problem : null;
}

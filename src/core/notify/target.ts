// The notify_url policy: with `notify_block_private` (setting) or `serve --notify-block-private`,
// notifications never go to private, loopback, link-local or unspecified addresses. Checked at
// create time on the URL's literal host, and again at delivery time on the DNS-resolved address.
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import type { Gateway } from "../gateway.ts";

const forced = new WeakSet<Gateway>();

/** `serve --notify-block-private`: the policy is on for this gateway whatever the setting says. */
export function forceBlockPrivate(gw: Gateway): void {
  forced.add(gw);
}

export async function blockPrivateOn(gw: Gateway): Promise<boolean> {
  return forced.has(gw) || (await gw.settings()).str("notify_block_private") === "1";
}

function v4Private(ip: string): boolean {
  const [a, b] = ip.split(".").map(Number) as [number, number];
  return a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 198 && (b === 18 || b === 19)) || a >= 224;
}

/** Private (RFC 1918, ULA, CGNAT), loopback, link-local, unspecified or multicast. */
export function isPrivateAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, "").toLowerCase();
  const v = isIP(ip);
  if (v === 4) return v4Private(ip);
  if (v !== 6) return true; // not an address at all: refuse rather than guess
  const mapped = /^(?:0:0:0:0:0:ffff:|::ffff:)(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (mapped) return v4Private(mapped[1]!);
  if (ip.startsWith("::ffff:")) return true; // hex-form mapped v4: refuse
  return ip === "::" || ip === "::1" || /^f[cd]/.test(ip) || /^fe[89ab]/.test(ip) || ip.startsWith("ff");
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  } catch {
    return null;
  }
}

/** Create time: the literal host only (no DNS on the request path). Null when allowed. */
export function literalTargetProblem(url: string): string | null {
  const host = hostOf(url);
  if (host === null) return "notify_url is not a valid URL";
  if (host === "localhost" || host.endsWith(".localhost") || (isIP(host) !== 0 && isPrivateAddress(host))) {
    return "notify_url points to a private, loopback or link-local address, which this gateway refuses";
  }
  return null;
}

/** Delivery time: the addresses the host resolves to. Null when every one is public. */
export async function resolvedTargetProblem(url: string): Promise<string | null> {
  const literal = literalTargetProblem(url);
  if (literal) return literal;
  const host = hostOf(url)!;
  let addresses: { address: string }[];
  try {
    addresses = isIP(host) ? [{ address: host }] : await lookup(host, { all: true });
  } catch (e) {
    return `cannot resolve ${host}: ${e instanceof Error ? e.message : String(e)}`;
  }
  const bad = addresses.find((a) => isPrivateAddress(a.address));
  return bad ? `notify_url resolves to ${bad.address}, a private, loopback or link-local address (notify_block_private)` : null;
}

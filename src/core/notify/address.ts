// Which IP addresses a notification may go to. Every address is read as 16 bytes, so the
// spellings an attacker picks (`::7f00:1`, `::ffff:127.0.0.1`, `64:ff9b::7f00:1`, 6to4, Teredo)
// reach the IPv4 rule they embed instead of slipping past a string pattern.
import { isIP } from "node:net";
import { networkInterfaces } from "node:os";

/** 16 bytes (IPv4 as ::ffff:a.b.c.d), or null when the text is not an IP address. */
export function ipBytes(text: string): Uint8Array | null {
  const ip = text.replace(/^\[|\]$/g, "").replace(/%.*$/, ""); // brackets, zone id
  const v = isIP(ip);
  if (v === 4) return Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...ip.split(".").map(Number)]);
  if (v !== 6) return null;
  // A dotted tail (`::ffff:1.2.3.4`) becomes its two hex groups, so one parser reads every form.
  const hex = ip.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) => `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`);
  const words = (s: string) => (s ? s.split(":").map((w) => parseInt(w, 16)) : []);
  const [left, right] = hex.split("::") as [string, string | undefined];
  const l = words(left);
  const r = right === undefined ? [] : words(right);
  const groups = right === undefined ? l : [...l, ...Array<number>(8 - l.length - r.length).fill(0), ...r];
  const out = new Uint8Array(16);
  groups.forEach((g, i) => ((out[i * 2] = g >> 8), (out[i * 2 + 1] = g & 0xff)));
  return out;
}

const v4Text = (b: Uint8Array, at: number) => `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;
const zero = (b: Uint8Array, from: number, to: number) => b.subarray(from, to).every((x) => x === 0);

/** The class of an IPv4 address that no notification may reach whatever the setting ("floor"). */
function v4Floor(a: number, b: number): string | null {
  if (a === 0) return "this-network (0.0.0.0/8)";
  if (a === 169 && b === 254) return "link-local (cloud metadata lives here)";
  if (a >= 224 && a <= 239) return "multicast";
  if (a >= 240) return "reserved or broadcast";
  return null;
}

/** The class of a non-public IPv4 address refused with notify_block_private. */
function v4Private(a: number, b: number, c: number): string | null {
  if (a === 127) return "loopback";
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return "private";
  if (a === 100 && b >= 64 && b <= 127) return "shared address space (CGNAT)";
  if (a === 198 && (b === 18 || b === 19)) return "benchmarking";
  if ((a === 192 && b === 0 && (c === 0 || c === 2)) || (a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)) return "reserved";
  return null;
}

export interface AddressClass {
  /** Refused even with notify_block_private off: never a merchant's server. */
  floor: boolean;
  why: string;
}

/** IPv4 embedded in an IPv6 address by a translation or tunnelling scheme, with its name. */
function embeddedV4(b: Uint8Array): { v4: Uint8Array; via: string }[] {
  const w = (i: number) => (b[i * 2]! << 8) | b[i * 2 + 1]!;
  if (zero(b, 0, 10) && w(5) === 0xffff) return [{ v4: b.subarray(12), via: "" }]; // ::ffff:0:0/96 (plain IPv4)
  if (zero(b, 0, 12)) return [{ v4: b.subarray(12), via: "IPv4-compatible " }]; // ::/96, deprecated
  if (zero(b, 0, 8) && w(4) === 0xffff && w(5) === 0) return [{ v4: b.subarray(12), via: "IPv4-translated " }];
  if (w(0) === 0x64 && w(1) === 0xff9b && zero(b, 4, 12)) return [{ v4: b.subarray(12), via: "NAT64 " }];
  if (w(0) === 0x2002) return [{ v4: b.subarray(2, 6), via: "6to4 " }];
  if (w(0) === 0x2001 && w(1) === 0) return [{ v4: b.subarray(4, 8), via: "Teredo server " }, { v4: b.subarray(12).map((x) => x ^ 0xff), via: "Teredo client " }];
  return [];
}

/** Why an IPv6 address (not embedding IPv4) is not public, or null. */
function v6Class(b: Uint8Array): AddressClass | null {
  const w0 = (b[0]! << 8) | b[1]!;
  if (w0 === 0x64 && b[2] === 0xff && b[3] === 0x9b && b[4] === 0 && b[5] === 1) return { floor: false, why: "local-use NAT64 (64:ff9b:1::/48)" };
  if (w0 === 0x0100 && zero(b, 2, 8)) return { floor: false, why: "discard-only (100::/64)" };
  if (w0 === 0x2001 && b[2] === 0x0d && b[3] === 0xb8) return { floor: false, why: "documentation (2001:db8::/32)" };
  if ((b[0]! & 0xfe) === 0xfc) return { floor: false, why: "unique local (fc00::/7)" };
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0x80) return { floor: true, why: "link-local (fe80::/10)" };
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0xc0) return { floor: false, why: "site-local (fec0::/10)" };
  if (b[0] === 0xff) return { floor: true, why: "multicast" };
  return null;
}

/** Every address of this machine's interfaces, read fresh (DHCP and cloud IPs change). */
function ownAddresses(): Set<string> {
  const own = new Set<string>();
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) {
    const bytes = ipBytes(a.address);
    if (bytes) own.add(bytes.join("."));
  }
  return own;
}

/**
 * Why a notification must not go to this address: `floor` classes always, the others when
 * notify_block_private is on (the server's own addresses included). Null for a public address.
 */
export function classifyAddress(address: string, ownSet?: ReadonlySet<string>): AddressClass | null {
  const b = ipBytes(address);
  if (!b) return { floor: true, why: "not an IP address" };
  if (zero(b, 0, 16)) return { floor: true, why: "unspecified (::)" };
  if (zero(b, 0, 15) && b[15] === 1) return { floor: false, why: "loopback (::1)" };
  const embedded = embeddedV4(b);
  for (const { v4, via } of embedded) {
    const floor = v4Floor(v4[0]!, v4[1]!);
    const priv = floor ?? v4Private(v4[0]!, v4[1]!, v4[2]!);
    if (priv) return { floor: floor !== null, why: `${via}${priv}${via ? ` (${v4Text(v4, 0)})` : ""}` };
  }
  if (embedded[0]?.via === "IPv4-compatible ") return { floor: false, why: "IPv4-compatible (::/96, deprecated)" };
  const v6 = v6Class(b);
  if (v6) return v6;
  // A merchant's name that resolves to this VPS's public address is this server too.
  // Read here, not up front: a loopback or private target is decided above without it (the interface
  // list was a sixteenth of the server's CPU per delivery to a shop on 127.0.0.1).
  const own = ownSet ?? ownAddresses();
  const mine = [b, ...embedded.map((e) => ipBytes(v4Text(e.v4, 0))!)].some((x) => own.has(x.join(".")));
  return mine ? { floor: false, why: "this server's own address" } : null;
}

/** True for every address notify_block_private refuses (the floor included). */
export function isPrivateAddress(address: string): boolean {
  return classifyAddress(address) !== null;
}

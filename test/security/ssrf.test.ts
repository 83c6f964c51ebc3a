// Issue 14 item 8: with notify_block_private on, no spelling of a private address passes (IPv4
// embedded in IPv6 by mapping, compatibility, NAT64, 6to4 or Teredo; 0.0.0.0/8; this server's own
// addresses), a name is resolved once and every answer checked, and the request goes to the
// address that was checked, with the merchant's name kept for Host and TLS.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { networkInterfaces } from "node:os";
import { join } from "node:path";
import { classifyAddress, isPrivateAddress } from "../../src/core/notify/address.ts";
import { deliverDue } from "../../src/core/notify/deliver.ts";
import { type Lookup, literalTargetProblem, pinTarget } from "../../src/core/notify/target.ts";
import { settleOperatorPayment } from "../../src/core/settle-report.ts";
import { harness, type Harness, nativeCreate, postJson, seed } from "../helpers.ts";

const REFUSED = [
  "::127.0.0.1", "[::127.0.0.1]", "::7f00:1", "::ffff:127.0.0.1", "[::ffff:127.0.0.1]", "::ffff:7f00:1", "0:0:0:0:0:ffff:7f00:1",
  "::ffff:0:7f00:1", // IPv4-translated
  "64:ff9b::7f00:1", "64:ff9b::127.0.0.1", "64:ff9b::a9fe:a9fe", "64:ff9b::c0a8:1", // NAT64 of loopback, metadata, 192.168/16
  "64:ff9b:1::808:808", "64:ff9b:1:abcd::1", // local-use NAT64: the v4 is wherever the operator put it
  "2002:7f00:1::1", "2002:a00:1::", "2002:c0a8:101::1", "2002:a9fe:a9fe::1", // 6to4 of 127/8, 10/8, 192.168/16, metadata
  "2001:0:4136:e378:8000:63bf:80ff:fffe", // Teredo, client 127.0.0.1 (stored XOR 0xff)
  "2001:0:7f00:1::1", // Teredo, server 127.0.0.1
  "0.0.0.0", "0.1.2.3", "0.255.255.255", "::", "::ffff:0.0.0.0",
  "127.0.0.1", "127.255.0.9", "10.1.2.3", "172.16.0.1", "192.168.1.1", "100.64.0.1", "169.254.169.254", "::ffff:169.254.169.254",
  "192.0.0.8", "192.0.2.1", "198.18.0.1", "198.51.100.7", "203.0.113.9", "224.0.0.1", "240.0.0.1", "255.255.255.255",
  "::1", "fe80::1", "fe80::1%eth0", "fc00::1", "fd12::3", "fec0::1", "ff02::1", "100::1", "2001:db8::1",
  "::8.8.8.8", // IPv4-compatible: deprecated, never a real server
];
const PUBLIC = ["8.8.8.8", "1.1.1.1", "172.32.0.1", "192.169.0.1", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1", "2606:4700::1111", "2a00:1450:4001::200e"];

describe("address classes refused with notify_block_private", () => {
  test("every private, reserved or embedded-private spelling is refused; public ones pass", () => {
    for (const a of REFUSED) expect([a, isPrivateAddress(a)]).toEqual([a, true]);
    for (const a of PUBLIC) expect([a, isPrivateAddress(a)]).toEqual([a, false]);
  });

  test("this server's own addresses, and their IPv6 spellings", () => {
    for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) expect([a.address, isPrivateAddress(a.address)]).toEqual([a.address, true]);
    // A VPS whose public address is 8.8.4.4: that address, mapped, via NAT64 or 6to4, is this server.
    const own = new Set(["0.0.0.0.0.0.0.0.0.0.255.255.8.8.4.4"]);
    for (const a of ["8.8.4.4", "::ffff:8.8.4.4", "64:ff9b::808:404", "2002:808:404::1"]) expect([a, classifyAddress(a, own)?.why]).toEqual([a, "this server's own address"]);
    expect(classifyAddress("8.8.8.8", own)).toBeNull();
  });

  test("URLs: the WHATWG spellings of the same addresses are refused at create time", () => {
    for (const u of ["http://[::127.0.0.1]/n", "http://[::ffff:127.0.0.1]:9/n", "http://[::ffff:7f00:1]/n", "http://[64:ff9b::7f00:1]/n", "http://[64:ff9b:1::1]/n", "http://[2002:7f00:1::]/n", "http://0.0.0.0:9/n", "http://0/n", "http://0x7f.1/n", "http://2130706433/n", "http://LOCALHOST/n", "http://a.localhost/n"]) {
      expect([u, literalTargetProblem(u) !== null]).toEqual([u, true]);
    }
    expect(literalTargetProblem("https://merchant.example.com/n")).toBeNull();
    expect(literalTargetProblem("http://[2606:4700::1111]/n")).toBeNull();
  });
});

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
});
afterEach(() => h.close());

const setting = async (k: string, v: string) => {
  await h.gw.store.setSetting(k, v);
  h.gw.forgetSettings();
};

/** A paid order whose notification goes to `url` (accepted with the policy off, as before it was turned on). */
async function paidOrderTo(url: string): Promise<string> {
  const { body } = await postJson(h, "/xpay/order/create", nativeCreate({ notify_url: url, money: `${10 + Math.floor(Math.random() * 80)}.00` }));
  expect(body.code).toBe(200);
  expect((await settleOperatorPayment(h.gw, body.data.trade_no))?.outcome).toBe("matched");
  return body.data.trade_no;
}

interface Sent {
  url: string;
  init: RequestInit & { tls?: { serverName?: string } };
}
function recordingFetch(answer = "success") {
  const sent: Sent[] = [];
  const f = (async (url: string, init: Sent["init"]) => (sent.push({ url: String(url), init }), new Response(answer))) as unknown as typeof fetch;
  return { sent, fetch: f };
}
function countingLookup(...answers: string[][]) {
  const asked: string[] = [];
  const lookup: Lookup = async (host) => (asked.push(host), answers[Math.min(asked.length - 1, answers.length - 1)]!.map((address) => ({ address })));
  return { asked, lookup };
}
const lastError = async (tradeNo: string) => (await h.gw.store.getNotification(tradeNo))!.attempts_log.at(-1)!.error;

describe("delivery with notify_block_private on", () => {
  test("a notify_url in any embedded or reserved spelling is refused before a connection is made", async () => {
    const trades = [];
    for (const u of ["http://[::127.0.0.1]:9/n", "http://[::ffff:127.0.0.1]:9/n", "http://[64:ff9b::7f00:1]/n", "http://[64:ff9b:1::a00:1]/n", "http://[2002:7f00:1::1]/n", "http://0.0.0.0:9/n", "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/n"]) trades.push(await paidOrderTo(u));
    await setting("notify_block_private", "1");
    const rec = recordingFetch();
    expect((await deliverDue(h.gw, { fetch: rec.fetch })).attempted).toBe(trades.length);
    expect(rec.sent).toEqual([]);
    for (const t of trades) expect(await lastError(t)).toContain("private or reserved address");
  });

  test("a name that resolves to a private address, even among public ones, is refused", async () => {
    await setting("notify_block_private", "1");
    for (const answer of [["127.0.0.1"], ["93.184.216.34", "10.0.0.7"], ["::ffff:10.0.0.1"], ["64:ff9b::a9fe:a9fe"], ["2606:4700::1111", "::1"]]) {
      const t = await paidOrderTo("http://merchant.example.com/n");
      const rec = recordingFetch();
      const dns = countingLookup(answer);
      await deliverDue(h.gw, { fetch: rec.fetch, lookup: dns.lookup });
      expect([answer, rec.sent.length]).toEqual([answer, 0]);
      expect(await lastError(t)).toContain("merchant.example.com resolves to");
    }
  });

  test("the request goes to the checked address: one lookup, Host and TLS name kept (a rebinding DNS cannot move it)", async () => {
    await setting("notify_block_private", "1");
    const t = await paidOrderTo("https://merchant.example.com:8443/notify?x=1");
    const rec = recordingFetch();
    const dns = countingLookup(["93.184.216.34"], ["127.0.0.1"]); // the second answer would be the attack
    await deliverDue(h.gw, { fetch: rec.fetch, lookup: dns.lookup });
    expect(dns.asked).toEqual(["merchant.example.com"]);
    expect(rec.sent.length).toBe(1);
    expect(rec.sent[0]!.url).toStartWith("https://93.184.216.34:8443/notify?x=1");
    expect((rec.sent[0]!.init.headers as Record<string, string>).host).toBe("merchant.example.com:8443");
    expect(rec.sent[0]!.init.tls?.serverName).toBe("merchant.example.com");
    expect((await h.gw.store.getNotification(t))?.status).toBe("delivered");
  });

  test("the floor holds with the policy off: cloud metadata and 0.0.0.0/8 are never targets, loopback is", async () => {
    const meta = await paidOrderTo("http://169.254.169.254/latest/meta-data");
    const zero = await paidOrderTo("http://0.0.0.0:9/n");
    const rec = recordingFetch();
    await deliverDue(h.gw, { fetch: rec.fetch });
    expect(rec.sent).toEqual([]);
    expect(await lastError(meta)).toContain("never a notification target");
    expect(await lastError(zero)).toContain("never a notification target");
    expect("target" in (await pinTarget("http://127.0.0.1:9/n", false))).toBe(true);
  });

  test("a literal address is its own pin: the URL as written (normalised), no lookup, no server name", async () => {
    const never: Lookup = async () => {
      throw new Error("looked up");
    };
    const pins = async (url: string) => {
      const r = await pinTarget(url, false, never);
      if (!("target" in r)) throw new Error(r.problem);
      return r.target;
    };
    expect(await pins("http://127.0.0.1:9/n?a=1")).toEqual({ url: "http://127.0.0.1:9/n?a=1", address: "127.0.0.1", host: "127.0.0.1:9" });
    expect(await pins("https://[0:0:0:0:0:0:0:1]:8443/n")).toEqual({ url: "https://[::1]:8443/n", address: "::1", host: "[::1]:8443" });
    expect(await pins("http://2130706433/n")).toEqual({ url: "http://127.0.0.1/n", address: "127.0.0.1", host: "127.0.0.1" });
    // A name is looked up and keeps its name for TLS.
    const named = await pinTarget("https://merchant.example.com/n", false, async () => [{ address: "93.184.216.34", family: 4 }]);
    expect(named).toEqual({ target: { url: "https://93.184.216.34/n", address: "93.184.216.34", host: "merchant.example.com", serverName: "merchant.example.com" } });
    expect(await pinTarget("http://[::1]:9/n", true, never)).toEqual({ problem: expect.stringContaining("refused by notify_block_private") });
  });
});

describe("a real connection to the pinned address", () => {
  const cert = readFileSync(join(import.meta.dir, "fixtures/merchant-test.crt"), "utf8");
  const key = readFileSync(join(import.meta.dir, "fixtures/merchant-test.key"), "utf8");

  test("http: merchant.test (no DNS answers it) reaches the receiver at the looked-up 127.0.0.1 with its Host", async () => {
    let host = "";
    const rx = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => ((host = req.headers.get("host") ?? ""), new Response("success")) });
    try {
      const t = await paidOrderTo(`http://merchant.test:${rx.port}/n`);
      const dns = countingLookup(["127.0.0.1"]);
      await deliverDue(h.gw, { lookup: dns.lookup });
      expect(dns.asked).toEqual(["merchant.test"]);
      expect(host).toBe(`merchant.test:${rx.port}`);
      expect((await h.gw.store.getNotification(t))?.status).toBe("delivered");
    } finally {
      rx.stop(true);
    }
  });

  test("https: the certificate is checked against the merchant's name while connecting to the IP", async () => {
    const rx = Bun.serve({ hostname: "127.0.0.1", port: 0, tls: { cert, key }, fetch: () => new Response("success") });
    // Trust the test CA only; everything else (URL, Host, serverName) is what the gateway chose.
    const trusting = ((url: string, init: Sent["init"]) => fetch(url, { ...init, tls: { ...init.tls, ca: cert } } as RequestInit)) as unknown as typeof fetch;
    try {
      const good = await paidOrderTo(`https://merchant.test:${rx.port}/n`);
      const wrong = await paidOrderTo(`https://other.test:${rx.port}/n`); // same IP, a name the certificate does not carry
      await deliverDue(h.gw, { fetch: trusting, lookup: countingLookup(["127.0.0.1"]).lookup });
      expect((await h.gw.store.getNotification(good))?.status).toBe("delivered");
      expect((await h.gw.store.getNotification(wrong))?.status).toBe("pending");
      expect(await lastError(wrong)).toContain("ERR_TLS_CERT_ALTNAME_INVALID");
    } finally {
      rx.stop(true);
    }
  });
});

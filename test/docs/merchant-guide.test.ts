// The merchant guide's signatures must be reproducible: every `printf ... | md5sum` pair, every
// request and notification with a literal sign/hash, and the V2 canonical strings are recomputed
// here with the gateway's own signing code, so the guide cannot drift from the rules.
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { canonicalString, md5Hex, rsaSign, rsaVerify } from "../../src/protocols/signing.ts";
import { newRsaKeyPair } from "../../src/core/platform-keys.ts";

const GUIDE = readFileSync(join(import.meta.dir, "..", "..", "docs", "merchant-guide.md"), "utf8");
const SECRET = /^SECRET=([0-9a-f]{32})$/m.exec(GUIDE)![1]!;

test("the guide's example merchant is pid 1001 with the documented AppSecret", () => {
  expect(SECRET).toBe("a1b2c3d4e5f60718293a4b5c6d7e8f90");
});

// printf '%s' 'CANONICAL'"$SECRET" | md5sum   followed by   # → <hash>  -   (the answer it prints)
const PRINTF = /printf '%s' '([^']*)'"\$SECRET" \| (md5sum|openssl md5)\n# → (?:MD5\(stdin\)= )?([0-9a-f]{32})/g;
const printed = [...GUIDE.matchAll(PRINTF)].map((m) => ({ canonical: m[1]!, hash: m[3]! }));

test("every printed MD5 equals md5(canonical string + AppSecret)", () => {
  expect(printed.length).toBeGreaterThanOrEqual(12);
  for (const p of printed) expect({ canonical: p.canonical, hash: md5Hex(p.canonical + SECRET) }).toEqual(p);
});

/** Parameter lists in the guide (request bodies, links, notifications) that carry a literal MD5. */
function signedParamLists(): Record<string, string>[] {
  const lists: Record<string, string>[] = [];
  for (const m of GUIDE.matchAll(/[A-Za-z_]+=[^\s'"&]*(?:&[A-Za-z_]+=[^\s'"&]*)+/g)) {
    if (!/(?:^|&)(?:sign|hash)=[0-9a-f]{32}(?:&|$)/.test(m[0])) continue;
    const params = Object.fromEntries(new URLSearchParams(m[0]));
    if ("payId" in params) continue; // V免签 signs concatenations: test/vmq/merchant-guide.test.ts checks those
    lists.push(params);
  }
  return lists;
}

test("every request, link and notification with a literal signature verifies, and its canonical string is shown", () => {
  const lists = signedParamLists();
  expect(lists.length).toBeGreaterThanOrEqual(10);
  const shown = new Set(printed.map((p) => p.canonical));
  for (const params of lists) {
    const field = "hash" in params ? "hash" : "sign";
    // V1 leaves sign_type out; the native protocol would sign it, and its examples never send it.
    const excluded = field === "hash" ? ["hash"] : ["sign", "sign_type"];
    const canonical = canonicalString(params, excluded);
    expect({ canonical, sign: md5Hex(canonical + SECRET) }).toEqual({ canonical, sign: params[field]! });
    if (canonical !== "pid=1001") expect(shown.has(canonical)).toBe(true);
  }
});

test("the run-time signed examples (cancel, V2) build the canonical string the rule asks for", () => {
  const ts = "1767225600";
  // native cancel: printf '%s' "CANONICAL$SECRET"
  const cancel = /printf '%s' "(out_order_id=[^"]*)\$SECRET"/.exec(GUIDE)![1]!.replace("$TS", ts);
  expect(cancel).toBe(canonicalString({ pid: "1001", out_order_id: "ORDER-1002", timestamp: ts }, ["sign"]));
  // V2 create: CANON="..." and the --data-urlencode fields of the request that follows it
  const v2 = /CANON="([^"]*)"/.exec(GUIDE)![1]!.replace("$TS", ts);
  const block = GUIDE.slice(GUIDE.indexOf('CANON="'), GUIDE.indexOf("> resp.json"));
  const fields = Object.fromEntries([...block.matchAll(/--data-urlencode "?(\w+)=([^\s"]*)"?/g)].map((m) => [m[1]!, m[2]!.replace("$TS", ts)]));
  expect(Object.keys(fields)).toEqual(expect.arrayContaining(["pid", "type", "out_trade_no", "notify_url", "name", "money", "timestamp", "sign", "sign_type"]));
  expect(v2).toBe(canonicalString(fields, ["sign", "sign_type"]));
  // V2 query
  const query = /printf '%s' "(out_trade_no=[^"]*)" \| openssl dgst -sha256 -sign merchant_private_key\.pem/.exec(GUIDE)![1]!.replace("$TS", ts);
  expect(query).toBe(canonicalString({ pid: "1001", out_trade_no: "ORDER-1006", timestamp: ts }, ["sign", "sign_type"]));
});

test("a signature made as the guide shows (openssl dgst -sha256 -sign | base64) is what the gateway verifies", () => {
  const pair = newRsaKeyPair();
  const fields = { pid: "1001", out_trade_no: "ORDER-1006", timestamp: "1767225600" };
  expect(rsaVerify({ ...fields, sign: rsaSign(fields, pair.privateKey) }, pair.publicKey)).toBe(true);
  if (!Bun.which("openssl")) return; // the shell half needs the openssl binary
  const dir = mkdtempSync(join(tmpdir(), "xpay-doc-"));
  try {
    writeFileSync(join(dir, "merchant_private_key.pem"), pair.privateKey);
    const r = Bun.spawnSync(["openssl", "dgst", "-sha256", "-sign", join(dir, "merchant_private_key.pem")], { stdin: new TextEncoder().encode(canonicalString(fields, ["sign", "sign_type"])) });
    expect(r.exitCode).toBe(0);
    expect(rsaVerify({ ...fields, sign: Buffer.from(r.stdout).toString("base64"), sign_type: "RSA" }, pair.publicKey)).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// `xpay client add-vmq` / `show-vmq` through the real CLI: the HOST/KEY text the app scans (HOST
// from --base-url, XPAY_BASE_URL or the base URL serve recorded, without scheme), the terminal
// QR code, `client list` showing the phone, and refusals that change nothing.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { cliOn } from "../cli/run-cli.ts";
import { tempDir } from "../helpers.ts";

const dir = tempDir("xpay-vmq-cli-");
const db = join(dir, "xpay.db");
const { xpay, json, refused } = cliOn(db);

beforeAll(() => {
  expect(xpay("migrate").code).toBe(0);
  json("merchant", "add", "--name", "Shop", "--pid", "1001");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("add-vmq prints HOST/KEY and its QR code; the key is 32 hex characters by default", () => {
  const r = xpay("client", "add-vmq", "--name", "phone1", "--pid", "1001", "--base-url", "http://pay.example.com:8080");
  expect(r.code).toBe(0);
  const key = /key (\w{32})/.exec(r.out)![1]!;
  expect(key).toMatch(/^[0-9a-f]{32}$/);
  expect(r.out).toContain(`\npay.example.com:8080/${key}\n`);
  expect(r.out).toContain("▄"); // the half-block QR code
  expect(r.out).toContain("base URL http://pay.example.com:8080/");
  expect(r.out).not.toContain("note:");
});

test("--json, an imported V免签 key, HOST from XPAY_BASE_URL or the base_url serve recorded; notes for https, paths, loopback", () => {
  const j = json("client", "add-vmq", "--name", "old", "--pid", "1001", "--key", "0123456789abcdef0123456789abcdef", "--base-url", "https://pay.example.com/xpay");
  expect(j).toMatchObject({ name: "old", pid: 1001, key: "0123456789abcdef0123456789abcdef", config: "pay.example.com/0123456789abcdef0123456789abcdef", shop_base_url: "https://pay.example.com/xpay/" });
  const notes = xpay("client", "show-vmq", "old", "--base-url", "https://pay.example.com/xpay").out;
  expect(notes).toContain("plain HTTP");
  expect(notes).toContain("has a path (/xpay)");
  expect(xpay("client", "show-vmq", "old", "--base-url", "http://127.0.0.1:8080").out).toContain("this machine only");

  expect(xpay("settings", "set", "base_url", "http://recorded.example.com").code).toBe(0);
  expect(json("client", "show-vmq", "old").config).toBe("recorded.example.com/0123456789abcdef0123456789abcdef");
  const env = Bun.spawnSync([process.execPath, "src/cli/main.ts", "--db", db, "client", "show-vmq", "old", "--json"], { env: { ...process.env, XPAY_BASE_URL: "http://10.0.0.5:8080", NO_COLOR: "1" } });
  expect(JSON.parse(env.stdout.toString()).config).toBe("10.0.0.5:8080/0123456789abcdef0123456789abcdef");
});

test("client list shows V免签 clients (kind vmq) before their first heartbeat", () => {
  const rows = json("client", "list") as { kind: string; name: string; pid: number; online: boolean; last_seen: string }[];
  expect(rows.filter((r) => r.kind === "vmq").map((r) => [r.name, r.pid, r.online, r.last_seen])).toEqual(expect.arrayContaining([["phone1", 1001, false, "never"], ["old", 1001, false, "never"]]));
  expect(xpay("client", "list").out).toMatch(/vmq +1001 +phone1 +none \(unbound\) +never +offline/);
});

test("refusals: one line, nothing written", () => {
  refused(["client", "add-vmq", "--name", "phone1", "--pid", "1001"], "a client named phone1 exists already");
  refused(["client", "add-vmq", "--name", "p2", "--pid", "1001", "--key", "0123456789abcdef0123456789abcdef"], "another client uses this key; each client needs its own");
  refused(["client", "add-vmq", "--name", "p3", "--pid", "4242"], "no merchant with pid 4242");
  refused(["client", "add-vmq", "--name", "p4", "--pid", "1001", "--key", "abc/defghijk"], '--key must be 8-128 printable ASCII characters without "/" or spaces (the app splits HOST/KEY on "/")');
  refused(["client", "add-vmq", "--name", "p5", "--pid", "1001", "--base-url", "pay.example.com"], '--base-url must be an http:// or https:// URL such as http://pay.example.com, not "pay.example.com"');
  refused(["client", "add-vmq", "--pid", "1001"], "missing required option: --name (see xpay client add-vmq --help)");
  refused(["client", "show-vmq", "nobody"], "no V免签 client named nobody (xpay client list shows them, kind vmq)");
});

test("--account binds the phone to its accounts: usable by the merchant, WeChat or Alipay", () => {
  const add = (...a: string[]) => json("channel", "add", ...a).id as number;
  const ali = add("--pid", "1001", "--pay-type", "alipay", "--code", "ali_a", "--name", "Alipay A", "--qrcode", "https://qr.alipay.com/a");
  const ali2 = add("--pid", "0", "--pay-type", "alipay", "--code", "ali_b", "--name", "Alipay B", "--qrcode", "https://qr.alipay.com/b");
  const wx = add("--pid", "1001", "--pay-type", "wxpay", "--code", "wx_a", "--name", "WeChat A", "--qrcode", "wxp://a");
  const qq = add("--pid", "1001", "--pay-type", "qqpay", "--code", "qq_a", "--name", "QQ A", "--qrcode", "https://i.qianbao.qq.com/a");
  json("merchant", "add", "--name", "Other", "--pid", "1002");
  const foreign = add("--pid", "1002", "--pay-type", "wxpay", "--code", "wx_o", "--name", "WeChat O", "--qrcode", "wxp://o");

  expect(json("client", "add-vmq", "--name", "bound", "--pid", "1001", "--account", `${ali},${wx}`, "--base-url", "http://pay.example.com").accounts).toEqual([ali, wx]);
  expect(xpay("client", "show-vmq", "bound", "--base-url", "http://pay.example.com").out).toContain(`accounts ${ali},${wx}`);
  // Two Alipay accounts on one phone: a push names only the pay type, and the report group keeps
  // their payable amounts apart, so it still means one order (test/clients/report-groups.test.ts).
  expect(json("client", "add-vmq", "--name", "b2", "--pid", "1001", "--account", String(ali), "--account", String(ali2), "--base-url", "http://pay.example.com").accounts).toEqual([ali, ali2]);
  refused(["client", "add-vmq", "--name", "b3", "--pid", "1001", "--account", String(qq)], `account ${qq} is qqpay; the V免签 app reports WeChat (wxpay) and Alipay (alipay) only`);
  refused(["client", "add-vmq", "--name", "b4", "--pid", "1001", "--account", String(foreign)], `account ${foreign} belongs to merchant 1002, not 1001; a merchant's client watches its own or shared accounts`);
  refused(["client", "add-vmq", "--name", "b5", "--pid", "1001", "--account", "999"], "no account with id 999 (xpay channel list shows them)");
  refused(["client", "add-vmq", "--name", "b6", "--pid", "1001", "--account", "3;4"], "--account takes account ids, e.g. --account 3 --account 4 (or --account 3,4)");
});

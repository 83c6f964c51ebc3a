// `xpay client add-smsforwarder`, `add-report`, `show`, `bind`, `remove` and `list` through the
// real CLI (issue 30 items 3-4, issue 27 item 10): the URL and secret each phone needs, the
// accounts it watches, refusals that change nothing, and an audit entry for every change and every
// secret shown (never the secret itself).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { cliOn } from "./run-cli.ts";
import { tempDir } from "../helpers.ts";

const dir = tempDir("xpay-clients-cli-");
const db = join(dir, "xpay.db");
const { xpay, json, refused } = cliOn(db);
let ali: number;
let shared: number;
let foreign: number;

beforeAll(() => {
  expect(xpay("migrate").code).toBe(0);
  json("merchant", "add", "--name", "Shop", "--pid", "1001");
  json("merchant", "add", "--name", "Other", "--pid", "1002");
  const add = (...a: string[]) => json("channel", "add", ...a).id as number;
  ali = add("--pid", "1001", "--pay-type", "alipay", "--code", "ali", "--name", "Alipay", "--qrcode", "https://qr.alipay.com/a");
  shared = add("--pid", "0", "--pay-type", "alipay", "--code", "shared", "--name", "Shared", "--qrcode", "https://qr.alipay.com/s");
  foreign = add("--pid", "1002", "--pay-type", "alipay", "--code", "b", "--name", "B", "--qrcode", "https://qr.alipay.com/b");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const audits = () => json("audit", "list", "--limit", "100") as { action: string; target: string; before: unknown; after: unknown }[];

describe("xpay client", () => {
  test("add-smsforwarder prints the Webhook URL and a secret of its own, in the app's words; --json: name, url, secret", () => {
    const out = xpay("client", "add-smsforwarder", "--name", "phone1", "--pid", "1001", "--account", String(ali), "--base-url", "https://pay.example.com").out;
    expect(out).toContain("发送通道 → + → Webhook");
    expect(out).toMatch(/Webhook Server +https:\/\/pay\.example\.com\/api\/report\/smsforwarder\/\d+/);
    expect(out).toMatch(/Secret +[0-9a-f]{32}/);
    expect(out).toContain("转发规则 → 应用");
    const j = json("client", "add-smsforwarder", "--name", "phone2", "--pid", "0", "--account", `${shared}`, "--base-url", "http://pay.example.com");
    expect(Object.keys(j)).toEqual(expect.arrayContaining(["name", "url", "secret"]));
    expect(j).toMatchObject({ name: "phone2", pid: 0, kind: "smsforwarder", accounts: [shared] });
    expect(j.url).toMatch(/^http:\/\/pay\.example\.com\/api\/report\/smsforwarder\/\d+$/);
    expect(j.secret).toMatch(/^[0-9a-f]{32}$/);
    // Plain HTTP: the note says what that costs.
    expect(xpay("client", "show", "phone2", "--base-url", "http://pay.example.com").out).toContain("plain HTTP");
  });

  test("add-report prints its report URLs (its own pid) and secret", () => {
    const j = json("client", "add-report", "--name", "watcher", "--pid", "1001", "--base-url", "https://pay.example.com");
    expect(j).toMatchObject({ kind: "report", pid: 1001, accounts: [], urls: { amount: "https://pay.example.com/api/report/1001/pc" } });
    expect(j.secret).toMatch(/^[0-9a-f]{32}$/);
  });

  test("list says what each client watches; bind and unbind change it; refusals change nothing", () => {
    const row = (name: string) => (json("client", "list") as { name: string; accounts: number[]; bound: boolean }[]).find((r) => r.name === name)!;
    expect(row("phone1")).toMatchObject({ accounts: [ali], bound: true });
    expect(row("watcher")).toMatchObject({ accounts: [], bound: false }); // its scope's accounts are all bound to phones
    expect(json("client", "bind", "watcher", "--account", String(shared))).toMatchObject({ accounts: [shared] });
    expect(json("client", "bind", "phone1", "--unbind")).toMatchObject({ accounts: [] });
    expect(row("phone1")).toMatchObject({ accounts: [ali], bound: false }); // unbound: every account of its scope no client is bound to
    refused(["client", "bind", "phone1", "--account", String(foreign)], `account ${foreign} belongs to merchant 1002, not 1001; a merchant's client watches its own or shared accounts`);
    refused(["client", "bind", "phone1"], "give --account (one or more) or --unbind");
    refused(["client", "bind", "nobody", "--unbind"], "no client named nobody with a secret of its own (xpay client list shows them: kinds vmq, smsforwarder, report)");
    refused(["client", "add-smsforwarder", "--name", "phone1", "--pid", "1001"], "a client named phone1 exists already");
    refused(["client", "add-report", "--name", "x", "--pid", "4242"], "no merchant with pid 4242");
    expect(row("phone1").accounts).toEqual([ali]);
  });

  test("channel list names who watches each account, and an account nobody watches", () => {
    const list = json("channel", "list") as { id: number; watched_by: string[] }[];
    expect(list.find((a) => a.id === ali)!.watched_by).toEqual(["phone1", "AppSecret of 1001"]); // phone1 unbound again
    expect(list.find((a) => a.id === shared)!.watched_by.sort()).toEqual(["phone2", "watcher"]);
    expect(list.find((a) => a.id === foreign)!.watched_by).toEqual(["AppSecret of 1002"]);
    expect(xpay("settings", "set", "report_merchant_secret", "0").code).toBe(0);
    expect((json("channel", "list") as { id: number; watched_by: string[] }[]).find((a) => a.id === foreign)!.watched_by).toEqual([]);
    expect(xpay("channel", "list").out).toMatch(/unwatched/);
  });

  test("remove: the client and its list row go; every change and every secret shown is audited, never the secret", () => {
    expect(xpay("client", "remove", "phone2").out).toContain("removed smsforwarder client phone2");
    expect((json("client", "list") as { name: string }[]).map((r) => r.name)).not.toContain("phone2");
    const log = audits();
    const actions = log.map((e) => e.action);
    for (const a of ["client.add", "client.bind", "client.remove", "client.reveal_key"]) expect(actions).toContain(a);
    const bind = log.find((e) => e.action === "client.bind" && JSON.stringify(e.after).includes(String(shared)))!;
    expect(bind).toMatchObject({ before: { accounts: [] }, after: { accounts: [shared] } });
    expect(JSON.stringify(log)).not.toMatch(/[0-9a-f]{32}/); // no secret in the log
  });
});

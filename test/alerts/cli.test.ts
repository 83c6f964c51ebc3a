// `xpay alert add | list | test | remove | history` as a child process on one database: each
// type's required fields in one line, options of another type refused by name, secrets never
// printed back, `test` printing the channel's answer, history after it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { cliOn } from "../cli/run-cli.ts";
import { tempDir } from "../helpers.ts";
import { sink } from "./util.ts";

const dir = tempDir("xpay-alert-cli-");
const db = join(dir, "xpay.db");
const { xpay, json, refused } = cliOn(db);
const receiver = sink([new Response('{"errcode":0,"errmsg":"ok"}', { headers: { "content-type": "application/json" } })]);

beforeAll(() => expect(xpay("migrate").code).toBe(0));
afterAll(() => (receiver.stop(), rmSync(dir, { recursive: true, force: true })));

/** The CLI without blocking this process, so the receiver here can answer it. */
async function xpayAsync(...args: string[]) {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1" };
  delete env.XPAY_DB;
  const p = Bun.spawn([process.execPath, "src/cli/main.ts", "--db", db, ...args], { env, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { out, err, code };
}

describe("alert add", () => {
  test("each type names every missing field at once, and options of other types", () => {
    refused(["alert", "add", "--type", "telegram", "--name", "tg"], "a telegram channel needs --token, --chat-id");
    refused(["alert", "add", "--type", "email", "--name", "m"], "an email channel needs --host, --from, --to");
    refused(["alert", "add", "--type", "dingtalk", "--name", "d"], "a dingtalk channel needs --access-token (or --webhook URL)");
    refused(["alert", "add", "--type", "wecom", "--name", "w", "--key", "k", "--chat-id", "1"], "--chat-id is not an option of a wecom channel (its options: --key, --msgtype, --base-url)");
    refused(["alert", "add", "--type", "sms", "--name", "s"], "--type must be one of: webhook, telegram, dingtalk, feishu, wecom, serverchan, email");
    refused(["alert", "add", "--name", "x"], "missing required option: --type (see xpay alert add --help)");
    refused(["alert", "add", "--type", "wecom", "--name", "w", "--key", "k", "--msgtype", "news"], "--msgtype must be one of: text, markdown");
    refused(["alert", "add", "--type", "feishu", "--name", "f", "--webhook", "https://open.feishu.cn/other"], "--webhook is not a Feishu/Lark bot webhook URL (.../open-apis/bot/v2/hook/<id>)");
    refused(["alert", "add", "--type", "webhook", "--name", "w", "--url", "http://[fe80::1]/x"], "--url points to fe80::1 (link-local (fe80::/10)), never an alert target");
    refused(["alert", "add", "--type", "email", "--name", "m", "--host", "smtp.example.com", "--from", "me", "--to", "a@b.c"], "--from must be an e-mail address");
  });

  test("a vendor webhook URL is split into its token; secrets are never printed back", () => {
    const added = json("alert", "add", "--type", "dingtalk", "--name", "ding", "--webhook", `${receiver.url}/robot/send?access_token=tok-SECRET-1`, "--secret", "SEC-very-secret-2");
    expect(added).toEqual({ name: "ding", type: "dingtalk", config: { access_token: "********", base_url: receiver.url, secret: "********" } });
    refused(["alert", "add", "--type", "wecom", "--name", "ding", "--key", "k"], "an alert channel named ding exists already");
    const hook = json("alert", "add", "--type", "webhook", "--name", "ops", "--url", `${receiver.url}/in?token=tok-SECRET-3`);
    expect(hook.secret).toMatch(/^[0-9a-f]{32}$/); // generated, shown once
    const list = xpay("alert", "list");
    expect(list.code).toBe(0);
    for (const s of ["tok-SECRET-1", "SEC-very-secret-2", "tok-SECRET-3", hook.secret]) expect(list.out).not.toContain(s);
    expect(list.out).toContain("ding");
    expect(json("alert", "list").channels.map((c: any) => c.name)).toEqual(["ding", "ops"]);
  });
});

describe("alert test, history, remove", () => {
  test("test sends a sample through the channel and prints its answer; history shows it", async () => {
    const before = receiver.got.length;
    const r = await xpayAsync("alert", "test", "--name", "ding");
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: "" });
    expect(r.out).toMatch(/^sent {2}ding \(dingtalk\) {2}HTTP 200 {2}\d+ ms\nanswer: \{"errcode":0,"errmsg":"ok"\}\n$/);
    expect(receiver.got.length).toBe(before + 1);
    const req = receiver.got.at(-1)!;
    expect(req.path).toBe("/robot/send");
    expect(req.query.get("access_token")).toBe("tok-SECRET-1");
    expect(JSON.parse(req.body).text.content).toContain('[xpay] TEST alert channel "ding"');
    const [h] = json("alert", "history", "--limit", "1");
    expect(h).toMatchObject({ channel: "ding", type: "dingtalk", event: "test", status: "sent", attempts: 1, http: 200, answer: '{"errcode":0,"errmsg":"ok"}' });
  });

  test("a failing channel exits 1 with its answer; an unknown name is refused", async () => {
    const dead = json("alert", "add", "--type", "wecom", "--name", "dead", "--key", "k", "--base-url", "http://127.0.0.1:9");
    expect(dead.name).toBe("dead");
    const r = await xpayAsync("alert", "test", "--name", "dead", "--json");
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out)).toMatchObject({ channel: "dead", ok: false, http_status: null });
    refused(["alert", "test", "--name", "nope"], "no alert channel named nope (see xpay alert list)");
  });

  test("remove keeps the history", () => {
    expect(xpay("alert", "remove", "--name", "ding").out).toBe("alert channel ding removed\n");
    refused(["alert", "remove", "--name", "ding"], "no alert channel named ding (see xpay alert list)");
    expect(json("alert", "list").channels.map((c: any) => c.name)).toEqual(["ops", "dead"]);
    expect(json("alert", "history").map((r: any) => r.channel)).toEqual(["dead", "ding"]);
    expect(xpay("alert", "history").out).toContain("ding");
  });
});

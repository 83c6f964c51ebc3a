// Each channel's exact request, as the vendor would get it, checked by a local receiver on
// 127.0.0.1: method, path, query, headers, body, and every signature recomputed here from the
// vendor's documented algorithm (not with the functions of src/). And each vendor's answer that
// means failure counts as a failed attempt.
import { afterAll, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { sendThrough } from "../../src/core/alerts/channels/send.ts";
import type { AlertChannel, ChannelType } from "../../src/core/alerts/store.ts";
import type { AlertMessage } from "../../src/core/alerts/types.ts";
import { sink } from "./util.ts";

const NOW = 1_795_400_000_123; // ms
const MESSAGE: AlertMessage = {
  event: "firing", condition: "client_silent", key: "client_silent:client:3", title: "Alert: Monitoring client \"p<1>\" is silent",
  text: "[xpay] ALERT client_silent\nMonitoring client \"p<1>\" is silent & quiet\nlook closer: xpay client list", since: 1_795_399_000, at: NOW - 5000,
  refs: { pid: 1001, clientId: 3 }, command: "xpay client list",
};

/** What the vendor answers the next request with (set by send()). */
let next = "{}";
const s = sink([() => new Response(next, { headers: { "content-type": "application/json" } })]);
afterAll(() => s.stop());

const channel = (type: ChannelType, config: Record<string, string>): AlertChannel => ({ id: 1, name: type, type, config: { base_url: s.url, ...config }, enabled: true, createdAt: 0 });

/** Sends MESSAGE through the channel with the vendor answering `answer`; returns the attempt and the request. */
async function send(ch: AlertChannel, answer: string) {
  next = answer;
  const before = s.got.length;
  const attempt = await sendThrough(ch, MESSAGE, { nowMs: NOW });
  expect(s.got.length).toBe(before + 1);
  return { attempt, req: s.got.at(-1)! };
}

const hmacB64 = (key: string, data: string) => createHmac("sha256", key).update(data).digest("base64");
const json = (r: { headers: Headers }) => r.headers.get("content-type");

describe("webhook", () => {
  test("JSON body, X-Xpay-Signature = sha256=hex HMAC-SHA256 of the raw body, timestamp header and field", async () => {
    const secret = "whsec-0123456789abcdef";
    const { attempt, req } = await send(channel("webhook", { url: `${s.url}/hooks/xpay?team=ops`, secret }), "anything");
    expect(attempt).toMatchObject({ ok: true, httpStatus: 200 });
    expect([req.method, req.target]).toEqual(["POST", "/hooks/xpay?team=ops"]);
    expect(json(req)).toBe("application/json; charset=utf-8");
    expect(req.headers.get("x-xpay-signature")).toBe(`sha256=${createHmac("sha256", secret).update(req.body).digest("hex")}`);
    expect(req.headers.get("x-xpay-timestamp")).toBe("1795400000");
    expect(JSON.parse(req.body)).toEqual({
      source: "xpay", event: "firing", condition: "client_silent", key: "client_silent:client:3", title: MESSAGE.title, text: MESSAGE.text,
      since: 1_795_399_000, at: 1_795_399_995, timestamp: 1_795_400_000, refs: { pid: 1001, clientId: 3 }, command: "xpay client list",
    });
  });

  test("a non-2xx answer fails the attempt", async () => {
    const ch = channel("webhook", { url: `${s.url}/down`, secret: "0123456789abcdef" });
    const bad = sink([new Response("nope", { status: 503 })]);
    const r = await sendThrough({ ...ch, config: { ...ch.config, url: bad.url } }, MESSAGE, { nowMs: NOW });
    bad.stop();
    expect(r).toMatchObject({ ok: false, httpStatus: 503, error: "HTTP 503", answer: "nope" });
  });
});

describe("telegram", () => {
  const token = "123456789:AAHx-secret_token_abcdefghijklmnop";
  test("POST /bot<token>/sendMessage with chat_id and plain text", async () => {
    const { attempt, req } = await send(channel("telegram", { token, chat_id: "-1001234567890" }), '{"ok":true,"result":{"message_id":7}}');
    expect(attempt.ok).toBe(true);
    expect([req.method, req.target]).toEqual(["POST", `/bot${token}/sendMessage`]);
    expect(json(req)).toBe("application/json; charset=utf-8");
    expect(JSON.parse(req.body)).toEqual({ chat_id: "-1001234567890", text: MESSAGE.text, disable_web_page_preview: true });
  });

  test("parse_mode HTML escapes the text and sets the title in bold", async () => {
    const { req } = await send(channel("telegram", { token, chat_id: "42", parse_mode: "HTML" }), '{"ok":true}');
    expect(JSON.parse(req.body)).toEqual({
      chat_id: "42", parse_mode: "HTML", disable_web_page_preview: true,
      text: "<b>[xpay] ALERT client_silent</b>\nMonitoring client \"p&lt;1&gt;\" is silent &amp; quiet\nlook closer: xpay client list",
    });
  });

  test("ok:false fails, with the description, and the token never appears in what is kept", async () => {
    const bad = sink([new Response(`{"ok":false,"error_code":400,"description":"Bad Request: chat not found for bot${token}"}`, { status: 400 })]);
    const r = await sendThrough(channel("telegram", { token, chat_id: "1", base_url: bad.url }), MESSAGE, { nowMs: NOW });
    bad.stop();
    expect(r).toMatchObject({ ok: false, httpStatus: 400 });
    expect(r.error).toBe("HTTP 400: ok:false Bad Request: chat not found for bot***");
    expect(r.answer).not.toContain(token);
  });
});

describe("dingtalk", () => {
  const secret = "SEC1234567890abcdef1234567890abcdef1234567890abcdef1234567890abcd";
  test("加签: timestamp (ms) and sign = urlencode(base64(HmacSHA256(secret, timestamp + \\n + secret))) in the query", async () => {
    const { attempt, req } = await send(channel("dingtalk", { access_token: "tok123", secret }), '{"errcode":0,"errmsg":"ok"}');
    expect(attempt.ok).toBe(true);
    const sign = encodeURIComponent(hmacB64(secret, `${NOW}\n${secret}`));
    expect(req.method).toBe("POST");
    expect(req.target).toBe(`/robot/send?access_token=tok123&timestamp=${NOW}&sign=${sign}`);
    expect(req.query.get("sign")).toBe(hmacB64(secret, `${NOW}\n${secret}`));
    expect(json(req)).toBe("application/json; charset=utf-8");
    expect(JSON.parse(req.body)).toEqual({ msgtype: "text", text: { content: MESSAGE.text } });
  });

  test("without a secret no timestamp or sign; markdown has a title and the text", async () => {
    const { req } = await send(channel("dingtalk", { access_token: "tok123", msgtype: "markdown" }), '{"errcode":0,"errmsg":"ok"}');
    expect(req.target).toBe("/robot/send?access_token=tok123");
    const body = JSON.parse(req.body);
    expect(body.msgtype).toBe("markdown");
    expect(body.markdown.title).toBe(MESSAGE.title);
    expect(body.markdown.text).toBe('**[xpay] ALERT client_silent**\n\nMonitoring client "p<1>" is silent & quiet\n\nlook closer: xpay client list');
  });

  test("errcode != 0 (HTTP 200) is a failed attempt", async () => {
    const { attempt } = await send(channel("dingtalk", { access_token: "tok123", secret }), '{"errcode":310000,"errmsg":"sign not match"}');
    expect(attempt).toMatchObject({ ok: false, httpStatus: 200, error: "errcode 310000: sign not match" });
  });
});

describe("feishu", () => {
  const secret = "feishu-sign-secret";
  test("签名校验: timestamp (s) and sign = base64(HmacSHA256 keyed by timestamp + \\n + secret over an empty message) in the body", async () => {
    const { attempt, req } = await send(channel("feishu", { hook: "5e3d587e-d78e-4a07-bd07-265f269f86fd", secret }), '{"code":0,"msg":"success","data":{}}');
    expect(attempt.ok).toBe(true);
    expect([req.method, req.target]).toEqual(["POST", "/open-apis/bot/v2/hook/5e3d587e-d78e-4a07-bd07-265f269f86fd"]);
    const ts = Math.floor(NOW / 1000);
    expect(JSON.parse(req.body)).toEqual({ timestamp: String(ts), sign: hmacB64(`${ts}\n${secret}`, ""), msg_type: "text", content: { text: MESSAGE.text } });
  });

  test("code != 0 fails; the old StatusCode form is read too", async () => {
    const hook = { hook: "abcdefgh-1234" };
    expect((await send(channel("feishu", hook), '{"code":19021,"msg":"sign match fail or timestamp is not within one hour from current time"}')).attempt).toMatchObject({ ok: false, error: "code 19021: sign match fail or timestamp is not within one hour from current time" });
    expect((await send(channel("feishu", hook), '{"StatusCode":0,"StatusMessage":"success"}')).attempt.ok).toBe(true);
    const plain = await send(channel("feishu", hook), '{"code":0}');
    expect(JSON.parse(plain.req.body)).toEqual({ msg_type: "text", content: { text: MESSAGE.text } });
  });
});

describe("wecom", () => {
  test("POST /cgi-bin/webhook/send?key=... with msgtype text; markdown; errcode != 0 fails", async () => {
    const key = "693a91f6-7xxx-4bc4-97a0-0ec2sifa5aaa";
    const { attempt, req } = await send(channel("wecom", { key }), '{"errcode":0,"errmsg":"ok"}');
    expect(attempt.ok).toBe(true);
    expect([req.method, req.target]).toEqual(["POST", `/cgi-bin/webhook/send?key=${key}`]);
    expect(JSON.parse(req.body)).toEqual({ msgtype: "text", text: { content: MESSAGE.text } });
    const md = await send(channel("wecom", { key, msgtype: "markdown" }), '{"errcode":0,"errmsg":"ok"}');
    expect(JSON.parse(md.req.body)).toEqual({ msgtype: "markdown", markdown: { content: '**[xpay] ALERT client_silent**\n\nMonitoring client "p<1>" is silent & quiet\n\nlook closer: xpay client list' } });
    const bad = await send(channel("wecom", { key }), '{"errcode":93000,"errmsg":"invalid webhook url"}');
    expect(bad.attempt).toMatchObject({ ok: false, error: "errcode 93000: invalid webhook url" });
  });

  test("a text of more than 2048 bytes is cut on a character boundary", async () => {
    const long = { ...MESSAGE, text: "收".repeat(1000) };
    next = '{"errcode":0}';
    await sendThrough(channel("wecom", { key: "k" }), long, { nowMs: NOW });
    const content: string = JSON.parse(s.got.at(-1)!.body).text.content;
    expect(new TextEncoder().encode(content).length).toBeLessThanOrEqual(2048);
    expect(content.endsWith("收\n…")).toBe(true);
  });
});

describe("serverchan", () => {
  test("POST /<SENDKEY>.send with form fields title and desp; code != 0 fails", async () => {
    const { attempt, req } = await send(channel("serverchan", { sendkey: "SCT12345TabcdefGHIJ" }), '{"code":0,"message":"","data":{"pushid":"1"}}');
    expect(attempt.ok).toBe(true);
    expect([req.method, req.target]).toEqual(["POST", "/SCT12345TabcdefGHIJ.send"]);
    expect(req.headers.get("content-type")).toBe("application/x-www-form-urlencoded; charset=utf-8");
    const form = new URLSearchParams(req.body);
    expect([...form.keys()]).toEqual(["title", "desp"]);
    expect(form.get("title")).toBe("Alert: Monitoring client \"p<1>\"…"); // at most 32 characters
    expect([...form.get("title")!].length).toBe(32);
    expect(form.get("desp")).toBe('**[xpay] ALERT client_silent**\n\nMonitoring client "p<1>" is silent & quiet\n\nlook closer: xpay client list');
    const bad = await send(channel("serverchan", { sendkey: "SCT12345TabcdefGHIJ" }), '{"code":40001,"message":"bad pushtoken"}');
    expect(bad.attempt).toMatchObject({ ok: false, error: "code 40001: bad pushtoken" });
  });

  test("a Server酱³ key (sctp<N>t...) uses /send/<key>.send", async () => {
    const { req } = await send(channel("serverchan", { sendkey: "sctp123tABCDEFGH" }), '{"code":0}');
    expect(req.target).toBe("/send/sctp123tABCDEFGH.send");
  });
});

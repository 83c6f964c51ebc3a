// The operator guide's webhook verification example, run as written against a request the
// webhook channel really sent: it accepts it, and refuses a changed body, another secret and an
// old copy.
import { afterAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sendThrough } from "../../src/core/alerts/channels/send.ts";
import { testMessage } from "../../src/core/alerts/render.ts";
import { tempDir } from "../helpers.ts";
import { sink } from "./util.ts";

const s = sink(["ok"]);
afterAll(() => s.stop());

function guideExample(): string {
  const guide = readFileSync("docs/operator-guide.md", "utf8");
  const m = /<!-- alert-webhook-verify -->\n```js\n([\s\S]*?)```/.exec(guide);
  if (!m) throw new Error("the verification example is missing from docs/operator-guide.md");
  return m[1]!;
}

test("the guide's verifyXpayAlert accepts a real request and refuses a changed, foreign or old one", async () => {
  const file = join(tempDir("xpay-guide-"), "verify.mjs");
  writeFileSync(file, guideExample());
  const { verifyXpayAlert } = (await import(file)) as { verifyXpayAlert: (b: string, h: Record<string, string>, s: string, now?: number) => any };
  const secret = "a-secret-of-the-channel-0123456789";
  const nowMs = Date.now();
  const r = await sendThrough({ id: 1, name: "ops", type: "webhook", enabled: true, createdAt: 0, config: { url: `${s.url}/in`, secret } }, testMessage("ops", { nowMs, timeZone: "UTC" }), { nowMs });
  expect(r.ok).toBe(true);
  const req = s.got.at(-1)!;
  const headers: Record<string, string> = {};
  req.headers.forEach((v, k) => (headers[k] = v));
  expect(verifyXpayAlert(req.body, headers, secret)).toMatchObject({ source: "xpay", event: "test" });
  expect(verifyXpayAlert(req.body.replace('"test"', '"firing"'), headers, secret)).toBeNull();
  expect(verifyXpayAlert(req.body, headers, "another-secret")).toBeNull();
  expect(verifyXpayAlert(req.body, headers, secret, Math.floor(nowMs / 1000) + 301)).toBeNull();
});

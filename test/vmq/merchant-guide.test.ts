// The merchant guide's V免签 section must be reproducible: every `printf ... "$KEY" | md5sum` pair
// is recomputed with node:crypto, the createOrder curl's sign and the notification and return
// URLs' signs are recomputed from their fields in the documented order, and the createOrder
// example, sent to the gateway, answers what the guide shows.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Harness, harness } from "../helpers.ts";
import { get, md5, seedVmq, vmqUrls } from "./clients.ts";

const GUIDE = readFileSync(join(import.meta.dir, "..", "..", "docs", "merchant-guide.md"), "utf8");
const SECTION = GUIDE.split(/^## V免签 merchant API/m)[1]!.split(/^## /m)[0]!;
const KEY = /^KEY=([0-9a-f]{32})/m.exec(SECTION)![1]!;

const printed = [...SECTION.matchAll(/printf '%s' '([^']*)'"\$KEY" \| md5sum\n# → ([0-9a-f]{32})  -/g)].map((m) => ({ text: m[1]!, hash: m[2]! }));

test("every printed md5 is md5(text + key)", () => {
  expect(printed.length).toBe(3);
  for (const p of printed) expect({ text: p.text, hash: md5(p.text + KEY) }).toEqual(p);
});

/** `-d k=v` and `--data-urlencode k=v` words of the createOrder curl. */
function curlFields(): Record<string, string> {
  const cmd = /curl -sG "\$BASE\/createOrder"([^#]*)/.exec(SECTION)![1]!;
  return Object.fromEntries([...cmd.matchAll(/(?:-d|--data-urlencode) (\w+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]));
}

test("the createOrder example is signed md5(payId + param + type + price + key), and its text is the one printed", () => {
  const f = curlFields();
  const text = f.payId! + f.param! + f.type! + f.price!;
  expect(f.sign).toBe(md5(text + KEY));
  expect(printed.map((p) => p.text)).toContain(text);
});

test("the notification and return URLs are signed md5(payId + param + type + price + reallyPrice + key)", () => {
  const urls = [...SECTION.matchAll(/^(?:GET )?(\S*\?payId=\S+)$/gm)].map((m) => Object.fromEntries(new URL(m[1]!, "http://x").searchParams));
  expect(urls.length).toBe(2);
  for (const q of urls) {
    const text = q.payId! + q.param! + q.type! + q.price! + q.reallyPrice!;
    expect(q.sign).toBe(md5(text + KEY));
    expect(printed.map((p) => p.text)).toContain(text);
  }
  expect(urls.map((q) => [q.price, q.reallyPrice])).toEqual([["20", "20.00"], ["20.00", "20.00"]]);
});

test("the run-time closeOrder signature is md5(orderId + key)", () => {
  expect(SECTION).toContain(`SIGN=$(printf '%s' "$ORDER_ID$KEY" | md5sum | cut -c1-32)`);
  expect(SECTION).toContain('curl -s "$BASE/closeOrder?orderId=$ORDER_ID&sign=$SIGN"');
});

/** The operator's notify URL the guide sets, with the stand-in merchant on its default port. */
const configured = () => /xpay merchant set 1001 --setting vmq_notify_url=(\S+)/.exec(SECTION)![1]!.replace("$HOOK_PORT", "9999");

let h: Harness;
beforeAll(async () => {
  h = harness();
  await seedVmq(h);
  await h.gw.store.addKeyedClient({ kind: "vmq", pid: 1001, name: "guide", key: KEY, accountIds: [], now: h.clock.now() });
  // The operator's line the guide shows: the notifyUrl of the example is the merchant's configured one.
  await vmqUrls(h, { notifyUrl: configured() });
});
afterAll(() => h.close());

test("sent to the gateway, the createOrder example answers what the guide shows", async () => {
  const f = curlFields();
  expect(f.notifyUrl!.replace("$HOOK_PORT", "9999")).toBe(configured());
  const r = await get(h, `http://localhost/createOrder?${new URLSearchParams({ ...f, notifyUrl: configured() })}`);
  // The answer the guide shows (`# → ...`), its `...` (order number, time, QR content) filled in.
  const shown = JSON.parse(/# → (\{"code":1,"msg":"成功","data":\{[^\n]*)/.exec(SECTION)![1]!.replace('"orderId":"..."', '"orderId":"x"').replace('"date":...', '"date":0').replace("https://qr.alipay.com/...", "q"));
  expect(r.body).toEqual({ ...shown, data: { ...shown.data, orderId: expect.stringMatching(/^\d{20}$/), date: h.clock.now(), payUrl: expect.stringMatching(/^https:\/\/qr\.alipay\.com\//) } });
});

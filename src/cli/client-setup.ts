// What the client commands share: the --account option (repeatable, or comma-separated), the
// public base URL a phone reaches, and how each kind of keyed client is printed with its setup
// (the secret is shown: every caller has audited the reveal or just created the client).
import pc from "picocolors";
import { clientReportUrls, noteText, type PhonePlace, SMS_JSON_TEMPLATE, vmqConfigText, vmqPlace, webhookPlace } from "../core/clients/setup.ts";
import type { Gateway } from "../core/gateway.ts";
import type { KeyedClient } from "../core/store.ts";
import { CliError, printJson } from "./context.ts";
import { terminalQr } from "./order-qr.ts";

/** commander collector for --account: `--account 3 --account 4` and `--account 3,4` alike. */
export function collectAccounts(value: string, previous: number[] = []): number[] {
  const ids = value.split(",").map((x) => x.trim()).filter((x) => x !== "");
  if (ids.length === 0 || ids.some((x) => !/^\d{1,10}$/.test(x))) throw new CliError("--account takes account ids, e.g. --account 3 --account 4 (or --account 3,4)");
  return [...previous, ...ids.map(Number)];
}

export const ACCOUNT_HELP = "an account this phone watches (repeat, or 3,4); default: every account in its scope that no client is bound to";

/** The base URL a phone reaches: --base-url, else XPAY_BASE_URL, else the one serve recorded. */
export async function baseFor(gw: Gateway, flag: string | undefined, placeOf: (given: string) => PhonePlace): Promise<{ host: string; base: string; notes: string[] }> {
  const given = flag ?? process.env.XPAY_BASE_URL ?? ((await gw.settings()).str("base_url") || gw.baseUrl);
  const place = placeOf(given);
  if (!place.ok && place.problem === "not_url") throw new CliError(`--base-url must be an http:// or https:// URL such as http://pay.example.com, not ${JSON.stringify(given)}`);
  if (!place.ok) throw new CliError("--base-url must start with http:// or https://");
  return { host: place.host, base: place.base, notes: place.notes.map(noteText) };
}

export const placeOf = (c: KeyedClient) => (c.kind === "vmq" ? vmqPlace : webhookPlace);

const watches = (c: KeyedClient) => (c.accountIds.length ? `accounts ${c.accountIds.join(",")}` : "unbound (every account in its scope no client is bound to)");
const owner = (c: KeyedClient) => (c.pid === 0 ? "the operator (any merchant's orders)" : `merchant ${c.pid}`);

/** Prints a keyed client's setup for its app, or its JSON. */
export async function printSetup(gw: Gateway, c: KeyedClient, flag: string | undefined, json: boolean | undefined, headline: string): Promise<void> {
  const where = await baseFor(gw, flag, placeOf(c));
  const urls = clientReportUrls(where.base, c);
  const common = { id: c.id, kind: c.kind, name: c.name, pid: c.pid, accounts: c.accountIds };
  if (c.kind === "vmq") {
    const config = vmqConfigText(where.host, c.key);
    if (json) return printJson({ ...common, key: c.key, config, shop_base_url: where.base });
    console.log(`${pc.green(headline)}  name ${pc.bold(c.name)}  ${owner(c)}  ${watches(c)}`);
    console.log(`key ${pc.bold(c.key)}  ${pc.dim("(keep it private: it signs the app's reports and the shop's orders)")}`);
    console.log(`\nmonitor app: scan with V免签's 扫码配置, or type it in as 手动配置`);
    console.log(terminalQr(config));
    console.log(config);
    console.log(`\nshop (dujiaoka Vpay and other V免签 drivers): base URL ${where.base}  key: the same`);
  } else if (c.kind === "smsforwarder") {
    if (json) return printJson({ ...common, url: urls.smsforwarder, secret: c.key, method: "POST", json_template: SMS_JSON_TEMPLATE });
    console.log(`${pc.green(headline)}  name ${pc.bold(c.name)}  ${owner(c)}  ${watches(c)}`);
    console.log(`\nIn SmsForwarder: 发送通道 → + → Webhook, then`);
    console.log(`  请求方式         POST`);
    console.log(`  Webhook Server  ${pc.bold(urls.smsforwarder)}`);
    console.log(`  Secret          ${pc.bold(c.key)}  ${pc.dim("(keep it private)")}`);
    console.log(`  消息模板          leave empty (the app's default), or this JSON template:`);
    console.log(`                  ${SMS_JSON_TEMPLATE}`);
    console.log(`  测试 (Test): the app shows 请求成功; xpay stores it as not a payment.`);
    console.log(`Then 通用设置: 转发应用通知 on (allow notification access); 转发规则 → 应用 → +: 发送通道 this Webhook,`);
    console.log(`  匹配字段 APP包名, 匹配模式 是, 匹配的值 com.eg.android.AlipayGphone (Alipay) / com.tencent.mm (WeChat); 保存.`);
  } else {
    if (json) return printJson({ ...common, secret: c.key, urls: { message: urls.message, amount: urls.amount, heart: urls.heart } });
    console.log(`${pc.green(headline)}  name ${pc.bold(c.name)}  ${owner(c)}  ${watches(c)}`);
    console.log(`secret ${pc.bold(c.key)}  ${pc.dim("(sign = md5(sorted non-empty k=v joined by & + secret), the spec's report API rule)")}`);
    console.log(`  message  POST ${urls.message}\n  amount   GET|POST ${urls.amount}\n  heart    GET|POST ${urls.heart}`);
  }
  for (const n of where.notes) console.log(pc.yellow(`note: ${n}`));
}

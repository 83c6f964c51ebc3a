// What `xpay dev` prints at start: the test credentials, the base URL of every family, a curl that
// creates an order (signed for the test AppSecret, ready to paste) and how to pay it. Lines a
// script may look for keep fixed labels (test/dev/dev-process.ts reads them).
import pc from "picocolors";
import { md5Sign } from "../protocols/signing.ts";
import type { DevInfo } from "../server/dev/info.ts";
import { shellWord } from "./self.ts";

/** A native create for the test merchant as one line of shell, its sign computed here. */
export function exampleCreateCurl(info: DevInfo, o: { outTradeNo: string; notifyUrl: string }): string {
  const params: Record<string, string> = { pid: String(info.pid), pay_type: "alipay", name: "xpay-dev-test", money: "1.00", out_trade_no: o.outTradeNo, notify_url: o.notifyUrl };
  params.sign = md5Sign(params, info.app_secret, ["sign"]);
  // Form-encoded, single-quoted: nothing in it can end the quote or be read by the shell.
  const body = Object.entries(params).map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/'/g, "%27")}`).join("&");
  return `curl -s ${info.base_url}/xpay/order/create -d '${body}'`;
}

const seconds = (s: number) => (s < 60 ? `${s} s` : `${s / 60} min`);

/** `self`: how this xpay is started from the folder it prints in (self.ts: npx xpay in a checkout, the binary's path...). */
export function quickStart(info: DevInfo, curl: string, self = "xpay"): string {
  const b = info.base_url;
  // CJK characters take two columns in a terminal.
  const width = (s: string) => [...s].reduce((n, ch) => n + (/[\u3000-\u9fff\uff00-\uffef]/.test(ch) ? 2 : 1), 0);
  const label = (s: string) => "  " + pc.dim(s + " ".repeat(Math.max(1, 16 - width(s))));
  const files = info.key_files;
  const lines = [
    pc.bold(pc.yellow("xpay dev: TEST MODE")) + " " + pc.dim("(simulated payments, public test credentials; never for real money)"),
    `${pc.dim("listening".padEnd(18))}${pc.bold(b)}  ${pc.dim(`every answer carries ${info.header}`)}`,
    `${pc.dim("database".padEnd(18))}${info.database}${info.temporary ? pc.dim("  (temporary: removed on exit)") : ""}`,
    "",
    pc.bold("test merchant"),
    `${label("pid")}${info.pid}`,
    `${label("AppSecret")}${info.app_secret}  ${pc.dim("(MD5: native, epay V1, hash protocol, report API)")}`,
    `${label("V2 keys")}${info.keys_dir}/`,
    `${label("")}${files.merchant_private_key}  ${pc.dim("(signs your requests; .txt: bare Base64 for SDK configs)")}`,
    `${label("")}${files.platform_public_key}  ${pc.dim("(verifies xpay's answers and notifications)")}`,
    `${label("V免签 key")}${info.vmq_key}`,
    `${label("accounts")}${info.accounts.map((a) => `${a.pay_type} ${a.code}`).join(", ")}  ${pc.dim("(no limits)")}`,
    "",
    pc.bold("base URLs"),
    `${label("native")}${b}/xpay/`,
    `${label("epay V1")}${b}/xpay/epay/`,
    `${label("epay V2 (RSA)")}${b}/xpay/epayn/`,
    `${label("hash protocol")}${b}/xpay/hashpay/`,
    `${label("V免签")}${b}/`,
    `${label("cashier API")}${b}/api/order/`,
    `${label("report API")}${b}/api/report/${info.pid}`,
    "",
    pc.bold("create an order") + pc.dim(" (native protocol, signed for the test AppSecret):"),
    `  ${curl}`,
    pc.bold("pay it") + pc.dim(" (trade_no from the answer):"),
    `  curl -s -X POST ${b}/dev/orders/TRADE_NO/pay`,
    `  ${pc.dim("or open")} ${b}/pay/TRADE_NO ${pc.dim("and press 模拟支付成功")}`,
    `  ${pc.dim(`/dev/orders/TRADE_NO/expire times it out now; /fail reports a payment 0.01 too high (stored unmatched, no notification)`)}`,
    "",
    pc.dim(`notifications go out at once; a refused one is retried after ${info.retry_delays_s.map(seconds).join(", ")}`),
    pc.dim(`attempts: ${self} --db ${shellWord(info.database)} notify show TRADE_NO    setup as JSON: GET ${b}/dev    stop: Ctrl-C`),
  ];
  return lines.join("\n");
}

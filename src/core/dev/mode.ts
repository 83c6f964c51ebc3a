// What makes `xpay dev` a test gateway, in one place: the seeded test values (chosen to be the
// merchant guide's example merchant, so every example of the guide runs against `xpay dev`
// unchanged), the compressed retry schedule and the marks every answer carries. `xpay serve`
// imports nothing from src/core/dev (core/test-database.ts recognises a database this made).
import type { PayType } from "../order-input.ts";

/** The guide's example merchant: pid 1001 and its AppSecret (docs/merchant-guide.md). */
export const DEV_PID = 1001;
export const DEV_SECRET = "a1b2c3d4e5f60718293a4b5c6d7e8f90";
export const DEV_MERCHANT_NAME = "xpay dev test shop";

/** The guide's V免签 example key (`KEY=` in the V免签 section). */
export const DEV_VMQ_KEY = "4b5a3c2d1e0f9a8b7c6d5e4f3a2b1c0d";
export const DEV_VMQ_CLIENT = "dev-phone";
/**
 * The guide's V免签 notify URL: a createOrder's notifyUrl is used only when the operator configured
 * it for the merchant (vmq_notify_url), so the test merchant starts with the guide's example one.
 */
export const DEV_VMQ_NOTIFY_URL = "http://127.0.0.1:9999/vmq";

/** One account per pay type, no limits; alipay_qr is the guide's example account. */
export const DEV_ACCOUNTS: readonly { payType: PayType; code: string; name: string; qrcode: string }[] = [
  { payType: "alipay", code: "alipay_qr", name: "Alipay A (test)", qrcode: "https://qr.alipay.com/fkx0001" },
  { payType: "wxpay", code: "wxpay_qr", name: "WeChat Pay (test)", qrcode: "wxp://f2f0xpaydevtest0001" },
  { payType: "qqpay", code: "qqpay_qr", name: "QQ Wallet (test)", qrcode: "https://i.qianbao.qq.com/wallet/sqrcode.htm?m=tenpay&f=wallet&a=1&u=xpaydev" },
];

/**
 * Retry delays in seconds after a failed attempt: a developer whose endpoint answered "fail" sees
 * the next attempt within seconds (the worker polls every second), and the notification gives up
 * after 9 attempts, about 9 minutes, instead of 16 over a day.
 */
export const DEV_RETRY_DELAYS_S = [1, 2, 5, 10, 30, 60, 120, 300] as const;

/** Response header on every answer of `xpay dev` (pages, APIs, errors, /healthz). */
export const TEST_MODE_HEADER = "x-xpay-mode";
export const TEST_MODE_VALUE = "test";

/** Setting that marks a database `xpay dev` made (defined with the rest of what marks one). */
export { DEV_MARKER_KEY } from "../test-database.ts";

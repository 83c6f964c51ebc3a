// The test setup of a running `xpay dev`, as `xpay dev --json` prints it and GET /dev serves it:
// credentials, where each family lives, and how to pay. Every value is a public test value.
import { DEV_MERCHANT_PRIVATE_KEY, DEV_PLATFORM_PUBLIC_KEY } from "../../core/dev/keys.ts";
import { DEV_RETRY_DELAYS_S, TEST_MODE_HEADER, TEST_MODE_VALUE } from "../../core/dev/mode.ts";
import type { DevSetup } from "../../core/dev/seed.ts";

/** The files `xpay dev` writes into its key folder (key file name -> what it is). */
export const KEY_FILES = {
  merchant_private_key: "merchant_private_key.pem",
  merchant_private_key_base64: "merchant_private_key.txt",
  merchant_public_key: "merchant_public_key.pem",
  platform_public_key: "platform_public_key.pem",
  platform_public_key_base64: "platform_public_key.txt",
} as const;

export interface DevInfo {
  mode: "test";
  header: string;
  base_url: string;
  database: string;
  temporary: boolean;
  pid: number;
  app_secret: string;
  vmq_key: string;
  keys_dir: string;
  key_files: Record<keyof typeof KEY_FILES, string>;
  merchant_private_key: string;
  platform_public_key: string;
  accounts: { id: number; pay_type: string; code: string }[];
  endpoints: Record<string, string>;
  retry_delays_s: number[];
}

export function devInfo(o: { baseUrl: string; database: string; temporary: boolean; keysDir: string; setup: DevSetup }): DevInfo {
  const b = o.baseUrl.replace(/\/+$/, "");
  const files = Object.fromEntries(Object.entries(KEY_FILES).map(([k, f]) => [k, `${o.keysDir}/${f}`])) as DevInfo["key_files"];
  return {
    mode: "test",
    header: `${TEST_MODE_HEADER}: ${TEST_MODE_VALUE}`,
    base_url: b,
    database: o.database,
    temporary: o.temporary,
    pid: o.setup.pid,
    app_secret: o.setup.secret,
    vmq_key: o.setup.vmqKey,
    keys_dir: o.keysDir,
    key_files: files,
    merchant_private_key: DEV_MERCHANT_PRIVATE_KEY,
    platform_public_key: DEV_PLATFORM_PUBLIC_KEY,
    accounts: o.setup.accounts.map((a) => ({ id: a.id, pay_type: a.payType, code: a.code })),
    endpoints: {
      native: `${b}/xpay/`,
      epay_v1: `${b}/xpay/epay/`,
      epay_v2: `${b}/xpay/epayn/`,
      hashpay: `${b}/xpay/hashpay/`,
      vmq: `${b}/`,
      cashier_api: `${b}/api/order/`,
      report: `${b}/api/report/${o.setup.pid}`,
      cashier_page: `${b}/pay/{trade_no}`,
      dev_pay: `${b}/dev/orders/{trade_no}/pay`,
      dev_expire: `${b}/dev/orders/{trade_no}/expire`,
      dev_fail: `${b}/dev/orders/{trade_no}/fail`,
    },
    retry_delays_s: [...DEV_RETRY_DELAYS_S],
  };
}

// Where each wire family answers, under the gateway's public base URL: what a merchant's developer
// types into an SDK or a panel's payment plugin (the merchant page shows it with the pid).
export type ApiFamily = "epay_v1" | "epay_v2" | "native" | "hashpay" | "vmq" | "cashier" | "report";

export interface ApiBase {
  family: ApiFamily;
  url: string;
}

export function apiBases(baseUrl: string, pid: number): ApiBase[] {
  const b = baseUrl.replace(/\/+$/, "");
  return [
    { family: "epay_v1", url: `${b}/xpay/epay/` },
    { family: "epay_v2", url: `${b}/xpay/epayn/` },
    { family: "native", url: `${b}/xpay/` },
    { family: "hashpay", url: `${b}/xpay/hashpay/` },
    { family: "vmq", url: `${b}/` },
    { family: "cashier", url: `${b}/api/order/` },
    { family: "report", url: `${b}/api/report/${pid}` },
  ];
}

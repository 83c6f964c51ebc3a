// Where each wire family answers, under the gateway's public base URL: what a merchant's developer
// types into an SDK or a panel's payment plugin (the merchant page shows it with the pid).
export interface ApiBase {
  family: string;
  url: string;
}

export function apiBases(baseUrl: string, pid: number): ApiBase[] {
  const b = baseUrl.replace(/\/+$/, "");
  return [
    { family: "epay V1", url: `${b}/xpay/epay/` },
    { family: "epay V2 (RSA)", url: `${b}/xpay/epayn/` },
    { family: "native", url: `${b}/xpay/` },
    { family: "hash protocol", url: `${b}/xpay/hashpay/` },
    { family: "V免签", url: `${b}/` },
    { family: "cashier API", url: `${b}/api/order/` },
    { family: "report API", url: `${b}/api/report/${pid}` },
  ];
}

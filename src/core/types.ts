// Plain data shared by the core, the store and the protocols.

export const OrderStatus = { Pending: 1, Paid: 2, Closed: 3, TimedOut: 4, Failed: 5 } as const;
export type OrderStatus = (typeof OrderStatus)[keyof typeof OrderStatus];

/** The wire family an order was created through; it decides the notification and return format. */
export type Family = "native" | "epay-v1" | "epay-v2" | "hashpay" | "vmq";

export interface Merchant {
  pid: number;
  name: string;
  secret: string;
  active: boolean;
  rsaPublicKey: string | null;
  notifyMethod: "POST" | "GET";
  settings: Record<string, string>;
  createdAt: number;
}

export interface ChannelAccount {
  id: number;
  pid: number; // 0 = shared by every merchant
  payType: string;
  code: string;
  name: string;
  remark: string;
  qrcode: string;
  scheme: string;
  minAmount: number;
  maxAmount: number;
  dayAmount: number;
  sort: number;
  enabled: boolean;
  /** Round-robin stamp: the account used longest ago has the lowest. */
  useSeq: number;
  lastSeenAt: number;
  createdAt: number;
  /**
   * The accounts one report could mean share a group (the smallest account id among them;
   * core/clients/watch.ts): payable amounts are unique across it. 0: not computed (the account alone).
   */
  reportGroup: number;
}

export interface Order {
  tradeNo: string;
  pid: number;
  outTradeNo: string;
  family: Family;
  payType: string; // '' until the payer picks one on the cashier page
  name: string;
  amount: number; // cents
  tradeAmount: number | null; // cents; null until an account is allocated
  accountId: number | null;
  status: OrderStatus; // as stored; read effectiveStatus() for what callers see
  failReason: string;
  notifyUrl: string;
  returnUrl: string;
  param: string;
  clientip: string;
  device: string;
  extra: Record<string, string>; // family-specific fields (hash: plugins, attach; V2: method, ...)
  apiTradeNo: string;
  buyer: string;
  createdAt: number; // unix seconds
  expireTime: number;
  paidAt: number | null;
  closedAt: number | null;
}

/** What a create asks for; the core fills in the rest. */
export interface NewOrder {
  pid: number;
  outTradeNo: string;
  family: Family;
  payType: string;
  name: string;
  amount: number;
  notifyUrl: string;
  returnUrl: string;
  param: string;
  clientip: string;
  device: string;
  extra: Record<string, string>;
}

// The dashboard's "first steps" after the first setup: what a new gateway still lacks before it can
// take money (a receiving account, a phone reporting to it, a merchant, one payment seen end to
// end). Each is read from what exists, not remembered, so a step is done however it was done (the
// console or the CLI) and the list is gone once everything is there. Cheap on a million orders:
// the lists are small and the paid-order check reads one row of orders_by_status_created.
import type { Gateway } from "../gateway.ts";
import { OrderStatus } from "../types.ts";

export interface FirstSteps {
  account: boolean;
  phone: boolean;
  merchant: boolean;
  payment: boolean;
}

export const allDone = (s: FirstSteps): boolean => s.account && s.phone && s.merchant && s.payment;

export async function firstSteps(gw: Gateway, now = gw.clock.now()): Promise<FirstSteps> {
  const [accounts, clients, merchants, paid] = await Promise.all([
    gw.store.listChannels(),
    gw.store.listClients(),
    gw.store.listMerchants(),
    gw.store.browse.searchOrders({ status: OrderStatus.Paid, limit: 1, now }),
  ]);
  return { account: accounts.length > 0, phone: clients.length > 0, merchant: merchants.length > 0, payment: paid.length > 0 };
}

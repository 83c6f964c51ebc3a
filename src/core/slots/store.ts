// Reserved payable amounts (issue 22): a sub-port of Store (`store.slots`). Which orders hold a
// trade_amount on an account is the allocator's rule (core/allocation.ts, takenTradeAmounts); the
// SQLite adapter states that rule once (store/sqlite/slots.ts SLOT_HELD) and both read it, so
// what the operator sees held is what the next create skips.

/** An order holding a payable amount on an account, with the times that say until when. */
export interface HeldSlot {
  tradeAmount: number;
  /** The account holding it: this one, or another of its report group (core/clients/watch.ts). */
  accountId: number;
  tradeNo: string;
  outTradeNo: string;
  pid: number;
  amount: number;
  /** As stored (a pending order past expire_time still says 1 until the sweeper runs). */
  status: number;
  createdAt: number;
  expireTime: number;
  paidAt: number | null;
  closedAt: number | null;
}

export interface SlotStore {
  /**
   * Orders holding a payable amount on the account's report group (the accounts one report could
   * mean, where the allocator keeps amounts unique): pending, or ended (paid, closed, timed out) at
   * or after `unpaidSince`; by trade_amount, then trade_no; only those within `range` when given.
   */
  heldSlots(accountId: number, unpaidSince: number, o: { range?: { min: number; max: number }; limit: number }): Promise<HeldSlot[]>;
}

// The report settlement unit: dedupe check, matching rule, payment with its outbox row and the
// stored report, all in one immediate transaction. Fifty copies of one report arriving at once
// are serialised here, and only the first can see a payable order.
import type { Database } from "bun:sqlite";
import { directoryAccounts } from "../../core/clients/directory.ts";
import type { MatchView } from "../../core/report-match.ts";
import type { Reason } from "../../core/reasons.ts";
import type { Directory, PayResult, ReportRecord, SettleReportResult, SettleReportUnit } from "../../core/store.ts";
import { SLOT_HELD } from "./slots.ts";
import { prepared } from "./statement.ts";
import { getOrder } from "./orders.ts";
import { knownStored } from "./order-keys.ts";
import { payOrder } from "./pay.ts";
import { claimNonce } from "./keyed-clients.ts";
import { dedupeSeen, insertReport } from "./reports.ts";
import { toOrder } from "../rows.ts";
import { inTransaction } from "./transaction.ts";
import { DUPLICATE_REASON, reasonColumns, REPLAYED } from "../report-reasons.ts";

type Row = Record<string, unknown>;

/** The orders of the report's accounts that hold its exact amount: a seek in orders_slot (migration 035). Exported for the plan test. */
export const ordersByAmountSql = () =>
  `SELECT * FROM orders INDEXED BY orders_slot WHERE account_id IN (SELECT value FROM json_each($ids)) AND trade_amount = $amount AND ${SLOT_HELD}`;

const ORDERS_BY_AMOUNT = prepared(ordersByAmountSql);

/**
 * The accounts come from the kept directory (directory.ts): its version is read in this transaction,
 * so they are the committed ones, without reading and mapping every account for every report.
 */
function view(db: Database, directory: () => Directory): MatchView {
  return {
    accounts: (pid) => directoryAccounts(directory(), pid),
    ordersByTradeAmount: (accountIds, tradeAmount, since) => {
      if (accountIds.length === 0) return [];
      // The ids are bound (one statement, prepared once, whatever the accounts), not inlined.
      const rows = ORDERS_BY_AMOUNT(db).all({ ids: JSON.stringify(accountIds), amount: tradeAmount, unpaid_since: since }) as Row[];
      // The order paid is named again by its public number (its payment, the report row): kept, not decrypted.
      for (const r of rows) knownStored(db, r.trade_no as string);
      return rows.map(toOrder);
    },
    orderByTradeNo: (tradeNo) => getOrder(db, tradeNo),
    ordersByOutTradeNo: (pid, out) =>
      (db.query("SELECT * FROM orders WHERE out_trade_no = $o AND ($pid IS NULL OR pid = $pid)").all({ o: out, pid }) as Row[]).map(toOrder),
  };
}

/** A savepoint of the store's group commit (index.ts): reports settled in one turn share one commit. */
export function settleReport(db: Database, u: SettleReportUnit, directory: () => Directory): SettleReportResult {
  return inTransaction(db, (): SettleReportResult => {
    const stored = (outcome: ReportRecord["outcome"], why: Reason, tradeNo: string | null, pay: PayResult | null): SettleReportResult => {
      const { id } = insertReport(db, { ...u.report, ...reasonColumns(why), outcome, tradeNo }, { bound: u.bound, deduped: true });
      return { reportId: id, outcome, reason: why.text, why, tradeNo, pay };
    };
    if (u.nonce && !claimNonce(db, u.nonce)) return { reportId: 0, outcome: "duplicate", reason: REPLAYED, tradeNo: null, pay: null, replayed: true };
    if (dedupeSeen(db, u.report.dedupeKey)) return stored("duplicate", DUPLICATE_REASON, null, null);
    const d = u.decide(view(db, directory));
    // Only an explicit "matched" pays; every other decision is stored with its reason.
    if (d.kind === "matched") {
      // A step of this unit (joined): it rolls back with the unit's savepoint.
      const pay = payOrder(db, u.pay(d.order));
      if (pay.kind === "paid") return stored("matched", d.reason, d.order.tradeNo, pay);
      return stored("unmatched", u.notPaid(pay, d.order.tradeNo), d.order.tradeNo, pay);
    }
    return stored("unmatched", d.reason, d.kind === "unmatched" ? (d.order?.tradeNo ?? null) : null, null);
  });
}

// The report settlement unit on PostgreSQL: dedupe key lock and check (with the directory's
// version), the core's matching rule (replay.ts: run against answers fetched in this transaction;
// the accounts from the directory kept at that version), the payment with its outbox row and the
// stored report sent together, in one commit. Fifty copies of one report at several instances: copies
// with one dedupe key wait on its lock and read "duplicate"; copies without one reach the order's
// row lock in payIn one at a time, and only the first finds the order payable.
import type { SQL } from "bun";
import { directoryAccounts } from "../../core/clients/directory.ts";
import type { MatchView } from "../../core/report-match.ts";
import type { Reason } from "../../core/reasons.ts";
import type { Directory, PayResult, ReportRecord, SettleReportResult, SettleReportUnit } from "../../core/store.ts";
import type { Order } from "../../core/types.ts";
import { toOrder } from "../rows.ts";
import { slotHeld } from "./slots.ts";
import { getOrder } from "./orders.ts";
import { payIn } from "./pay.ts";
import { Answers, replay } from "./replay.ts";
import { claimNonce } from "./keyed-clients.ts";
import { DUPLICATE_REASON, reasonColumns, REPLAYED } from "../report-reasons.ts";
import { claimKey, insertReportIn } from "./reports.ts";
import type { PgDirectory } from "./directory.ts";
import { unit } from "./tx.ts";

type Row = Record<string, unknown>;

async function ordersByTradeAmount(tx: SQL, accountIds: number[], tradeAmount: number, since: number): Promise<Order[]> {
  if (accountIds.length === 0) return [];
  const rows = await tx`
    SELECT * FROM orders WHERE account_id = ANY(${accountIds.map((id) => Math.trunc(id))}::bigint[]) AND trade_amount = ${tradeAmount} AND ${slotHeld(tx, since)}`;
  return rows.map(toOrder);
}

function view(tx: SQL, answers: Answers, directory: () => Promise<Directory>): MatchView {
  return {
    accounts: (pid) => answers.ask(`accounts\0${pid}`, async () => directoryAccounts(await directory(), pid)).slice(),
    ordersByTradeAmount: (ids, amount, since) => answers.ask(`amount\0${ids.join(",")}\0${amount}\0${since}`, () => ordersByTradeAmount(tx, ids, amount, since)).slice(),
    orderByTradeNo: (tradeNo) => answers.ask(`trade\0${tradeNo}`, () => getOrder(tx, tradeNo)),
    ordersByOutTradeNo: (pid, out) =>
      answers
        .ask(`out\0${pid}\0${out}`, async () =>
          ((await tx`SELECT * FROM orders WHERE out_trade_no = ${out} AND (${pid}::bigint IS NULL OR pid = ${pid})`) as Row[]).map(toOrder),
        )
        .slice(),
  };
}

export function settleReport(sql: SQL, u: SettleReportUnit, kept: PgDirectory): Promise<SettleReportResult> {
  return unit(sql, async (tx): Promise<SettleReportResult> => {
    // The nonce's unique key makes a second copy wait for the first one's commit, then fail the claim.
    if (u.nonce && !(await claimNonce(tx, u.nonce))) return { reportId: 0, outcome: "duplicate", reason: REPLAYED, tradeNo: null, pay: null, replayed: true };
    const { duplicate, version } = await claimKey(tx, u.report.dedupeKey);
    const directory = async () => {
      if (version !== undefined) return kept.at(tx, version);
      const [row] = await tx`SELECT v FROM directory_version`;
      return kept.at(tx, row ? Number(row.v) : null);
    };
    type Outcome = ReportRecord["outcome"];
    const insert = (outcome: Outcome, why: Reason, tradeNo: string | null) => () => insertReportIn(tx, { ...u.report, ...reasonColumns(why), outcome, tradeNo }, false, u.bound);
    const answer = (reportId: number | null, outcome: Outcome, why: Reason, tradeNo: string | null, pay: PayResult | null): SettleReportResult =>
      ({ reportId, outcome, reason: why.text, why, tradeNo, pay });
    const stored = async (outcome: Outcome, why: Reason, tradeNo: string | null, pay: PayResult | null) => answer(await insert(outcome, why, tradeNo)(), outcome, why, tradeNo, pay);
    if (duplicate) return stored("duplicate", DUPLICATE_REASON, null, null);
    const answers = new Answers();
    const d = await replay(() => u.decide(view(tx, answers, directory)), answers);
    // Only an explicit "matched" pays; every other decision is stored with its reason.
    if (d.kind === "matched") {
      // Once the order is paid, the report is stored as matched beside its outbox row (one round trip).
      const { beside: reportId, ...pay } = await payIn(tx, u.pay(d.order), insert("matched", d.reason, d.order.tradeNo));
      if (pay.kind === "paid") return answer(reportId ?? null, "matched", d.reason, d.order.tradeNo, pay);
      return stored("unmatched", u.notPaid(pay, d.order.tradeNo), d.order.tradeNo, pay);
    }
    return stored("unmatched", d.reason, d.kind === "unmatched" ? (d.order?.tradeNo ?? null) : null, null);
  });
}

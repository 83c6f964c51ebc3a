// The report settlement unit on PostgreSQL: dedupe key lock and check (with the directory's
// version), the core's matching rule (replay.ts: run against answers fetched in this transaction;
// the accounts from the directory kept at that version, its first question guessed and sent with
// the check), the payment with its outbox row and the stored report sent together with the COMMIT. Fifty copies of one report at several instances: copies
// with one dedupe key wait on its lock and read "duplicate"; copies without one reach the order's
// row lock in payIn one at a time, and only the first finds the order payable.
import type { SQL } from "bun";
import { directoryAccounts } from "../../core/clients/directory.ts";
import type { MatchView } from "../../core/report-match.ts";
import type { Reason } from "../../core/reasons.ts";
import type { Directory, PayResult, ReportRecord, SettleReportResult, SettleReportUnit } from "../../core/store.ts";
import type { Order } from "../../core/types.ts";
import { toOrder } from "../rows.ts";
import { amongIds } from "./listed.ts";
import { slotHeld } from "./slots.ts";
import { getOrder } from "./orders.ts";
import { payIn } from "./pay.ts";
import { Answers, firstQuestion, replay } from "./replay.ts";
import { claimNonce } from "./keyed-clients.ts";
import { DUPLICATE_REASON, reasonColumns, REPLAYED } from "../report-reasons.ts";
import { claimKey, insertReportIn, reportInsert } from "./reports.ts";
import type { PgDirectory } from "./directory.ts";
import { pipelinedUnit } from "./tx.ts";

type Row = Record<string, unknown>;

/**
 * The orders that hold `tradeAmount` on the accounts, a seek each in orders_slot; the accounts
 * listed (listed.ts), so the statement keeps its generic plan where PostgreSQL planned it again at
 * every report with an array.
 */
export async function ordersByTradeAmount(tx: SQL, accountIds: number[], tradeAmount: number, since: number): Promise<Order[]> {
  if (accountIds.length === 0) return [];
  const rows = await tx`SELECT * FROM orders WHERE account_id ${amongIds(tx, accountIds)} AND trade_amount = ${tradeAmount} AND ${slotHeld(tx, since)}`;
  return rows.map(toOrder);
}

/** The rule's view; `accounts` answers the accounts question (from the directory at the version read, or a guess). */
function view(tx: SQL, answers: Answers, accounts: (pid: number | null) => Directory["accounts"]): MatchView {
  return {
    accounts: (pid) => accounts(pid).slice(),
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

/**
 * The rule's first question after the accounts, guessed with the directory kept now and sent at
 * once, behind the dedupe key's lock and check on the connection (their round trip): a read that
 * runs after the lock is granted, as it would one round trip later. It stands when the version the
 * check reads is the guess's; otherwise it is dropped and the rule asks again.
 */
function guessFirst(tx: SQL, u: SettleReportUnit, kept: PgDirectory): { version: number; sent: [string, Promise<unknown>][] } | null {
  const latest = kept.latest();
  if (!latest) return null;
  const guess = new Answers();
  firstQuestion(() => u.decide(view(tx, guess, (pid) => directoryAccounts(latest.directory, pid))), guess);
  const sent = guess.sendWanted();
  return sent.length ? { version: latest.version, sent } : null;
}

/**
 * Three round trips for a paid report with a dedupe key (pipelinedUnit; six before): BEGIN with the
 * key's lock and check and the guessed candidates; the payment's update; its outbox row and the
 * stored report with COMMIT. The nonce's claim, a guess that missed and a rule that asks more add
 * theirs (test/pg/settle-round-trips.test.ts counts them on the wire).
 */
export function settleReport(sql: SQL, u: SettleReportUnit, kept: PgDirectory): Promise<SettleReportResult> {
  return pipelinedUnit(sql, async (tx, end): Promise<SettleReportResult> => {
    // The nonce's unique key makes a second copy wait for the first one's commit, then fail the claim.
    if (u.nonce && !(await claimNonce(tx, u.nonce))) return { reportId: 0, outcome: "duplicate", reason: REPLAYED, tradeNo: null, pay: null, replayed: true };
    const claimed = claimKey(tx, u.report.dedupeKey);
    // Only with a key: its check reads the directory's version, which says whether the guess stands.
    const guessed = u.report.dedupeKey === null ? null : guessFirst(tx, u, kept);
    const { duplicate, version } = await claimed;
    const answers = new Answers();
    if (guessed) {
      // Read whatever the outcome: a failed read has failed the transaction, and is thrown here.
      const values = await Promise.all(guessed.sent.map(([, p]) => p));
      if (version === guessed.version) guessed.sent.forEach(([key], i) => answers.seed(key, values[i]));
    }
    const directory = async () => {
      if (version !== undefined) return kept.at(tx, version);
      const [row] = await tx`SELECT v FROM directory_version`;
      return kept.at(tx, row ? Number(row.v) : null);
    };
    type Outcome = ReportRecord["outcome"];
    const record = (outcome: Outcome, why: Reason, tradeNo: string | null): ReportRecord => ({ ...u.report, ...reasonColumns(why), outcome, tradeNo });
    const answer = (reportId: number | null, outcome: Outcome, why: Reason, tradeNo: string | null, pay: PayResult | null): SettleReportResult =>
      ({ reportId, outcome, reason: why.text, why, tradeNo, pay });
    const stored = async (outcome: Outcome, why: Reason, tradeNo: string | null, pay: PayResult | null) =>
      answer(await insertReportIn(tx, record(outcome, why, tradeNo), false, u.bound), outcome, why, tradeNo, pay);
    if (duplicate) return stored("duplicate", DUPLICATE_REASON, null, null);
    const d = await replay(
      () => u.decide(view(tx, answers, (pid) => answers.ask(`accounts\0${pid}`, async () => directoryAccounts(await directory(), pid)))),
      answers,
    );
    // Only an explicit "matched" pays; every other decision is stored with its reason.
    if (d.kind === "matched") {
      // Once the order is paid, the report is stored as matched beside its outbox row, and COMMIT
      // goes with them (one round trip).
      const beside = reportInsert(tx, record("matched", d.reason, d.order.tradeNo), false);
      const { beside: reportId, ...pay } = await payIn(tx, u.pay(d.order), { beside, end });
      if (pay.kind === "paid") return answer(reportId ?? null, "matched", d.reason, d.order.tradeNo, pay);
      return stored("unmatched", u.notPaid(pay, d.order.tradeNo), d.order.tradeNo, pay);
    }
    return stored("unmatched", d.reason, d.kind === "unmatched" ? (d.order?.tradeNo ?? null) : null, null);
  });
}

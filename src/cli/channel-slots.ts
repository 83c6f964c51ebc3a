// `xpay channel slots ID`: the payable amounts an account's orders hold now (pending, or ended
// within the match window), until when, and the order behind each; with --amount, the amounts the
// next order of that amount would try there and the one it gets. The same view as the console's
// /admin/accounts/:id/slots (core/slots/reserved.ts). A reader: it works on a read-only copy.
import type { Command } from "commander";
import pc from "picocolors";
import { formatYuan, readTypedYuan, showYuan } from "../core/money.ts";
import { STATUS_NAMES } from "../core/order-state.ts";
import { type ReservedSlot, reservedAmounts, SLOT_LIST_LIMIT } from "../core/slots/reserved.ts";
import { type Cli, CliError, printJson, printTable, requireInt } from "./context.ts";
import { examples } from "./help.ts";
import { showTime } from "./time.ts";

const row = (s: ReservedSlot) => ({
  trade_amount: showYuan(s.tradeAmount), trade_no: s.tradeNo, out_trade_no: s.outTradeNo, pid: s.pid, amount: showYuan(s.amount),
  status: STATUS_NAMES[s.shownStatus], ended: showTime(s.endedAt), held_until: showTime(s.heldUntil),
});

const json = (s: ReservedSlot) => ({
  trade_amount_cents: s.tradeAmount, trade_amount_yuan: formatYuan(s.tradeAmount), trade_no: s.tradeNo, out_trade_no: s.outTradeNo, pid: s.pid,
  amount_cents: s.amount, status: s.shownStatus, status_text: STATUS_NAMES[s.shownStatus], ended_at: s.endedAt, held_until: s.heldUntil,
});

export function register(program: Command, cli: Cli): void {
  const channel = program.commands.find((c) => c.name() === "channel");
  if (!channel) throw new Error("register the channel command group before channel slots");
  channel
    .command("slots <id>")
    .description("payable amounts reserved on an account now: pending orders, and orders that ended within match_window")
    .addHelpText("after", examples("xpay channel slots 1", "xpay channel slots 1 --amount 10.00", "xpay channel slots 1 --json"))
    .option("--amount <yuan>", "also show which payable amount the next order of this amount would get here, e.g. 10.00")
    .option("--json", "print JSON (amounts in cents)")
    .action(async (id: string, o: { amount?: string; json?: boolean }) => {
      const accountId = requireInt("id", id, { min: 1 });
      const typed = o.amount === undefined ? undefined : readTypedYuan("--amount", o.amount, { example: ["10", "10.00"] });
      if (typed && !typed.ok) throw new CliError(typed.problem);
      const probe = typed?.cents;
      const v = await reservedAmounts(cli.open(), accountId, { probe });
      if (!v) throw new CliError(`no account with id ${accountId} (xpay channel list shows them)`);
      if (o.json) {
        return printJson({
          account: { id: v.account.id, name: v.account.name, pay_type: v.account.payType, enabled: v.account.enabled },
          now: v.now, match_window: v.matchWindow, max_offset_cents: v.maxOffset, offset_direction: v.direction, truncated: v.truncated,
          slots: v.slots.map(json),
          ...(v.probe ? { probe: { amount_cents: v.probe.amount, next_cents: v.probe.next, steps: v.probe.steps.map((s) => ({ trade_amount_cents: s.tradeAmount, held_by: s.heldBy?.tradeNo ?? null })) } } : {}),
        });
      }
      console.log(`${pc.bold(`account ${v.account.id}`)} ${v.account.name} (${v.account.payType}${v.account.enabled ? "" : ", disabled"}): ${v.slots.length}${v.truncated ? "+" : ""} payable amount(s) held; match_window ${v.matchWindow} s, max_offset ${showYuan(v.maxOffset)}, ${v.direction}`);
      printTable(v.slots.map(row), ["trade_amount", "trade_no", "out_trade_no", "pid", "amount", "status", "ended", "held_until"]);
      if (v.truncated) console.log(pc.yellow(`only the first ${SLOT_LIST_LIMIT} shown (lowest amounts)`));
      if (v.probe) {
        const p = v.probe;
        const tried = p.steps.map((s) => (s.heldBy ? pc.dim(`${showYuan(s.tradeAmount)} held`) : showYuan(s.tradeAmount))).join(", ");
        console.log(`\nan order of ${showYuan(p.amount)} tries ${tried}`);
        console.log(p.next === null ? pc.red(`every amount within max_offset is held: it would not get this account`) : `next order of ${showYuan(p.amount)} here: ${pc.bold(showYuan(p.next))}`);
      }
    });
}

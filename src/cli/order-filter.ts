// The order filter as `xpay order` options: `order list` and `order close-pending` take the same
// flags (the console's orders filter, core/browse/order-query.ts), worded and checked once here.
import type { Command } from "commander";
import { type OrderFilterField, type ParsedOrderFilter, parseOrderFilter } from "../core/browse/order-query.ts";
import { STATUS_WORDS } from "../core/order-state.ts";
import { CliError } from "./context.ts";

const STATUS_HELP = `${Object.keys(STATUS_WORDS).join(", ")} (or 1-5)`;

/** Each filter field: its flag, the commander option key, the help text. */
const OPTIONS: [OrderFilterField, string, string, string][] = [
  ["pid", "--pid <pid>", "pid", "only this merchant"],
  ["status", "--status <status>", "status", STATUS_HELP],
  ["pay_type", "--pay-type <type>", "payType", "only this pay type (alipay, wxpay, qqpay)"],
  ["account", "--account <id>", "account", "only orders allocated to this account"],
  ["from", "--from <date>", "from", "created on or after: 2026-11-23 or \"2026-11-23 14:30\" (in the timezone setting)"],
  ["to", "--to <date>", "to", "created up to the end of this day (or before this time)"],
  ["q", "--search <text>", "search", "a trade_no (20 digits), an amount in yuan (9.98) or an out_trade_no"],
  ["ip", "--ip <address>", "ip", "only orders of this payer address (clientip)"],
  ["amount_min", "--amount-min <yuan>", "amountMin", "order amount at least (yuan, e.g. 10 or 9.98)"],
  ["amount_max", "--amount-max <yuan>", "amountMax", "order amount at most (yuan)"],
  ["paid_from", "--paid-from <date>", "paidFrom", "paid on or after (date or date and time; paid orders only)"],
  ["paid_to", "--paid-to <date>", "paidTo", "paid up to the end of this day (or before this time)"],
];

/** Adds the filter's options to `cmd`, except `skip` (close-pending has no status or paid dates). */
export function filterOptions(cmd: Command, skip: OrderFilterField[] = []): Command {
  for (const [field, flag, , help] of OPTIONS) if (!skip.includes(field)) cmd.option(flag, help);
  return cmd;
}

/**
 * The options as the filter's typed values (only those given) and the parsed filter; a bad value is
 * a CliError naming its flag. The console's empty field means "any"; an option typed empty is a
 * mistake (an unset shell variable).
 */
export function filterFromOptions(o: Record<string, unknown>, zone: string): { typed: Partial<Record<OrderFilterField, string>>; parsed: ParsedOrderFilter } {
  const typed: Partial<Record<OrderFilterField, string>> = {};
  for (const [field, , key] of OPTIONS) if (typeof o[key] === "string") typed[field] = o[key] as string;
  const parsed = parseOrderFilter(typed, zone);
  for (const [field, flag] of OPTIONS) {
    const name = flag.split(" ")[0];
    const bad = parsed.problems[field];
    if (bad) throw new CliError(`${name} ${bad.message}`);
    if (typed[field]?.trim() === "") throw new CliError(field === "status" ? `--status must be one of: ${STATUS_HELP}` : `${name} must not be empty`);
  }
  return { typed, parsed };
}

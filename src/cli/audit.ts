// `xpay audit list`: the audit log of operator actions (console and CLI), newest first; the same
// query as the console's /admin/audit page (its dates too).
import type { Command } from "commander";
import { AUDIT_PAGE_MAX, listAudit } from "../core/admin/audit.ts";
import { parseDateRange } from "../core/browse/date-range.ts";
import { type Cli, CliError, intArg, printJson, printTable } from "./context.ts";
import { examples } from "./help.ts";
import { commandZone, showTime } from "./time.ts";

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function register(program: Command, cli: Cli): void {
  const audit = program
    .command("audit")
    .description("the audit log of operator actions")
    .addHelpText("after", examples("xpay audit list", "xpay audit list --user alice --action session.login --limit 20"));
  audit
    .command("list")
    .description("list audit entries, newest first")
    .addHelpText("after", examples("xpay audit list", "xpay audit list --user cli --json", "xpay audit list --action operator.password --limit 5", "xpay audit list --from 2026-11-23 --to 2026-11-23"))
    .option("--limit <n>", `how many (1-${AUDIT_PAGE_MAX}, default 50)`)
    .option("--user <name>", "only this actor's (an operator, or cli for the terminal)")
    .option("--action <key>", "only this action, e.g. session.login, operator.add")
    .option("--from <date>", "written on or after: 2026-11-23 or \"2026-11-23 14:30\" (in the timezone setting)")
    .option("--to <date>", "written up to the end of this day (or before this time)")
    .option("--json", "print JSON")
    .action(async (o: { limit?: string; user?: string; action?: string; from?: string; to?: string; json?: boolean }) => {
      const limit = intArg("--limit", o.limit, { min: 1 }) ?? 50;
      if (limit > AUDIT_PAGE_MAX) throw new CliError(`--limit must be at most ${AUDIT_PAGE_MAX}`);
      const gw = cli.open(); // reads the timezone setting the dates are in
      const range = parseDateRange(o.from, o.to, await commandZone(gw.store));
      for (const f of ["from", "to"] as const) {
        if (range.problems[f]) throw new CliError(`--${f} ${range.problems[f]!.message}`);
        if (o[f]?.trim() === "") throw new CliError(`--${f} must not be empty`);
      }
      const entries = await listAudit(gw, { actor: o.user, action: o.action, from: range.from, to: range.to, limit });
      if (o.json) return printJson(entries.map((e) => ({ ...e, time: showTime(e.at) })));
      printTable(
        entries.map((e) => ({
          id: e.id, time: showTime(e.at), actor: e.actor, action: e.action, target: e.target, ip: e.ip,
          change: clip([e.before !== null ? `before ${JSON.stringify(e.before)}` : "", e.after !== null ? `after ${JSON.stringify(e.after)}` : ""].filter(Boolean).join(" "), 60),
          reason: clip(e.reason, 40),
        })),
        ["id", "time", "actor", "action", "target", "ip", "change", "reason"],
      );
    });
}

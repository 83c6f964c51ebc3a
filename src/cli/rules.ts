// `xpay rules`: the operator's own payment-message rules, for a wording the built-in formats do not
// know yet (core/rules), and the notifications that no rule recognised.
import type { Command } from "commander";
import pc from "picocolors";
import { CLI_ACTOR } from "../core/admin/audit.ts";
import { showYuan } from "../core/money.ts";
import { AMOUNT_EXAMPLE, type RuleInput } from "../core/rules/check.ts";
import { addRule, removeRule, testRule } from "../core/rules/manage.ts";
import { ruleStatus } from "../core/rules/operator-rules.ts";
import { fromSenders } from "../core/rules/unparsed.ts";
import type { StoredRule, UnparsedMessage } from "../core/rules/store.ts";
import { type Cli, CliError, intArg, printJson, printTable } from "./context.ts";
import { examples } from "./help.ts";
import { showTime } from "./time.ts";

const short = (s: string, n = 40) => (s.length > n ? `${s.slice(0, n - 3)}...` : s);
/** `status`: "on", or "off: " and why it does not run (disabled by migration 018, or no longer passing the checks). */
const ruleView = (r: StoredRule) => {
  const off = ruleStatus(r);
  return { name: r.name, package: r.pkg, pay_type: r.payType, titles: r.titles, text: r.text, status: off ? `off: ${off}` : "on", created_at: showTime(r.createdAt) };
};
const unparsedView = (m: UnparsedMessage) => ({
  id: m.id, last_seen: showTime(m.lastSeen), first_seen: showTime(m.firstSeen), pid: m.pid, package: m.pkg, title: m.title, text: m.text, count: m.count, reason: m.reason,
});

const EXAMPLE_ADD = `xpay rules add --package com.tencent.mm --title 微信支付 --title 微信收款助手 --text '^收款到账${AMOUNT_EXAMPLE}元，来自.{1,20}$' --pay-type wxpay`;

interface PatternFlags {
  package?: string;
  title?: string[];
  text?: string;
  payType?: string;
  name?: string;
}

function withPatternOptions(cmd: Command, required: boolean): Command {
  const opt = (flags: string, help: string) => (required ? cmd.requiredOption(flags, help) : cmd.option(flags, help));
  opt("--package <package>", "the app's package, exactly (com.tencent.mm, com.eg.android.AlipayGphone, ...)");
  // Repeatable: each --title is one exact name of the payment sender, never a pattern.
  const names = (v: string, prev: string[] | undefined) => [...(prev ?? []), v];
  if (required) cmd.requiredOption("--title <name>", "the sender's exact name, as the notification's whole title; repeat it for each name (never a pattern)", names);
  else cmd.option("--title <name>", "the sender's exact name, as the notification's whole title; repeat it for each name (never a pattern)", names);
  opt("--text <regex>", `the whole text, anchored (^...$, RE2 syntax: no look-around); the amount in yuan as the group ${AMOUNT_EXAMPLE}`);
  opt("--pay-type <type>", "alipay / wxpay / qqpay");
  return cmd;
}

export function register(program: Command, cli: Cli): void {
  const rules = program
    .command("rules")
    .description("your own rules for payment messages the built-in formats do not recognise yet, and the messages no rule recognised")
    .addHelpText("after", examples("xpay rules unparsed", "xpay rules list", EXAMPLE_ADD));

  rules
    .command("list")
    .description("your rules (the built-in formats apply first)")
    .addHelpText("after", examples("xpay rules list", "xpay rules list --json"))
    .option("--json", "print JSON")
    .action(async (o: { json?: boolean }) => {
      const rows = (await cli.open().store.rules.listRules()).map(ruleView);
      if (o.json) return printJson(rows);
      printTable(rows.map((r) => ({ ...r, titles: r.titles.join(" | ") })), ["name", "package", "pay_type", "titles", "text", "status", "created_at"]);
    });

  withPatternOptions(rules.command("add"), true)
    .description("add a rule after its checks (the title's exact names, the text anchored with the amount group, no chat-like sample matches); a running server uses it within a second")
    .addHelpText("after", `\nTry a rule first with xpay rules test and the same options.${examples(EXAMPLE_ADD)}`)
    .option("--name <name>", "a name for list and remove (default: PAYTYPE-N)")
    .option("--json", "print JSON")
    .action(async (o: PatternFlags & { json?: boolean }) => {
      const r = await addRule(cli.open(), CLI_ACTOR, { pkg: o.package!, titles: o.title!, text: o.text!, payType: o.payType!, name: o.name });
      if (!r.ok) throw new CliError(r.reason);
      if (o.json) return printJson(ruleView(r.rule));
      console.log(`rule ${pc.bold(r.rule.name)} added; notifications it recognises now pay (re-send one from the phone, or xpay simulate-pay the order)`);
    });

  withPatternOptions(rules.command("test [name]"), false)
    .description("what a rule (a saved one by name, or the patterns given) would recognise among the stored unrecognised messages, and whether it would save")
    .addHelpText("after", examples("xpay rules test wxpay-1", "xpay rules test --package com.tencent.mm --title 微信支付 --text '^收款到账(?<amount>\\d+(?:\\.\\d{1,2})?)元$' --pay-type wxpay"))
    .option("--pid <pid>", "only messages of this merchant")
    .option("--json", "print JSON")
    .action(async (name: string | undefined, o: PatternFlags & { pid?: string; json?: boolean }) => {
      const gw = cli.open();
      let input: RuleInput;
      if (name !== undefined) {
        const saved = (await gw.store.rules.listRules()).find((r) => r.name === name);
        if (!saved) throw new CliError(`no rule named ${name}; see xpay rules list`);
        input = saved;
      } else {
        const missing = ["package", "title", "text", "payType"].filter((k) => o[k as keyof PatternFlags] === undefined);
        if (missing.length) throw new CliError(`give a rule name, or --package, --title, --text and --pay-type (missing: ${missing.map((k) => `--${k === "payType" ? "pay-type" : k}`).join(", ")})`);
        input = { name: "test", pkg: o.package!, titles: o.title!, text: o.text!, payType: o.payType! };
      }
      const t = await testRule(gw, input, { pid: intArg("--pid", o.pid) });
      if (o.json) {
        printJson({ saves: t.problem === null, problem: t.problem, chat_samples: t.samples, matches: t.matches.map((m) => ({ ...unparsedView(m.message), amount_cents: m.amount })) });
      } else {
        console.log(t.problem === null ? pc.green("checks: passed (the rule would save)") : `${pc.red("checks: refused:")} ${t.problem}`);
        if (t.samples.length) console.log(`${pc.red("takes chat-like samples:")} ${t.samples.map((s) => s.name).join("; ")}`);
        console.log(`\n${pc.bold("stored unrecognised messages it recognises:")} ${t.matches.length}`);
        printTable(
          t.matches.map((m) => ({ ...unparsedView(m.message), amount: m.amount === null ? "(not an amount)" : showYuan(m.amount), title: short(m.message.title, 24), text: short(m.message.text) })),
          ["id", "last_seen", "pid", "title", "text", "amount", "count"],
        );
      }
      if (t.problem !== null) process.exitCode = 1;
    });

  rules
    .command("remove <name>")
    .description("remove a rule; a running server stops using it within a second")
    .addHelpText("after", examples("xpay rules remove wxpay-1"))
    .action(async (name: string) => {
      if (!(await removeRule(cli.open(), CLI_ACTOR, name))) throw new CliError(`no rule named ${name}; see xpay rules list`);
      console.log(`rule ${name} removed`);
    });

  rules
    .command("unparsed")
    .description("payment-app notifications that mention an amount but no rule recognised (the last 500; a re-send is counted)")
    .addHelpText("after", examples("xpay rules unparsed", "xpay rules unparsed --pid 1001 --from-sender", "xpay rules unparsed --pid 1001 --limit 5 --json"))
    .option("--pid <pid>", "only this merchant's phones")
    .option("--from-sender", "only those under the payment app's own title (微信支付, 支付宝...), not chats that quote a payment: what the unparsed_messages alert counts")
    .option("--limit <n>", "at most n messages", "50")
    .option("--json", "print JSON (whole title and text)")
    .action(async (o: { pid?: string; fromSender?: boolean; limit: string; json?: boolean }) => {
      const gw = cli.open();
      const f = { pid: intArg("--pid", o.pid), limit: intArg("--limit", o.limit, { min: 1 }) };
      const rows = (o.fromSender ? await fromSenders(gw, f) : await gw.store.rules.listUnparsed(f)).map(unparsedView);
      if (o.json) return printJson(rows);
      printTable(
        rows.map((r) => ({ ...r, title: short(r.title, 24), text: short(r.text), reason: short(r.reason, 50) })),
        ["id", "last_seen", "pid", "package", "title", "text", "count", "reason"],
      );
    });
}

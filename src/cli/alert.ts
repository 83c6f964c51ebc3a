// `xpay alert add | list | test | remove | history`: the channels operator alerts go to, and what
// was sent through them. Secrets (bot tokens, sign keys, SMTP passwords, webhook secrets) are
// never printed back, except a webhook secret xpay generated, shown once when it is made.
import type { Command } from "commander";
import pc from "picocolors";
import { CLI_ACTOR } from "../core/admin/audit.ts";
import { addAlertChannel, removeAlertChannel, testAlertChannel } from "../core/alerts/channel-admin.ts";
import { CHANNEL_KINDS, CHANNEL_TYPES, flagOf, maskConfig } from "../core/alerts/channels/index.ts";
import type { AlertHistoryRow } from "../core/alerts/store.ts";
import { type Cli, CliError, intArg, printJson, printTable } from "./context.ts";
import { examples } from "./help.ts";
import { showTime, showTimeMs } from "./time.ts";

/** Every channel field, once, with the types that take it (and what it means to each). */
function fieldOptions(): { key: string; attr: string; help: string }[] {
  const byKey = new Map<string, { type: string; help: string }[]>();
  for (const type of CHANNEL_TYPES) for (const f of CHANNEL_KINDS[type].fields) byKey.set(f.key, [...(byKey.get(f.key) ?? []), { type, help: f.help }]);
  return [...byKey].map(([key, uses]) => {
    const same = uses.every((u) => u.help === uses[0]!.help);
    const help = same ? `${uses.map((u) => u.type).join(", ")}: ${uses[0]!.help}` : uses.map((u) => `${u.type}: ${u.help}`).join("; ");
    return { key, attr: key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), help };
  });
}

const historyView = (r: AlertHistoryRow) => ({
  id: r.id, at: showTimeMs(r.createdAt), channel: r.channelName, type: r.channelType, event: r.event, status: r.status, attempts: r.attempts,
  http: r.last?.httpStatus ?? "", error: r.last?.error ?? "", answer: (r.last?.answer ?? "").replace(/\s+/g, " ").slice(0, 80), title: r.title, key: r.key,
  sent_at: showTimeMs(r.sentAt), next_attempt_at: r.status === "pending" ? showTimeMs(r.nextAttemptAt) : "",
});

export function register(program: Command, cli: Cli): void {
  const alert = program
    .command("alert")
    .description("operator alerts: the channels they go to (webhook, Telegram, DingTalk, Feishu, WeCom, Server酱, e-mail) and what was sent")
    .addHelpText("after", examples("xpay alert add --type telegram --name tg --token 123456:AA... --chat-id 42", "xpay alert test --name tg", "xpay alert history"));

  const add = alert
    .command("add")
    .description("add an alert channel; every alert goes to every channel")
    .addHelpText(
      "after",
      examples(
        "xpay alert add --type webhook --name ops --url https://ops.example.com/xpay-alerts",
        "xpay alert add --type telegram --name tg --token 123456789:AAH... --chat-id -1001234567890",
        "xpay alert add --type dingtalk --name ding --webhook 'https://oapi.dingtalk.com/robot/send?access_token=...' --secret SEC...",
        "xpay alert add --type feishu --name lark --webhook https://open.feishu.cn/open-apis/bot/v2/hook/... --secret ...",
        "xpay alert add --type wecom --name wx --key 693a91f6-...",
        "xpay alert add --type serverchan --name sc --sendkey SCT...",
        "xpay alert add --type email --name mail --host smtp.qq.com --port 465 --tls tls --user me@qq.com --pass APP-PASSWORD --from me@qq.com --to ops@example.com",
      ),
    )
    .requiredOption("--type <type>", CHANNEL_TYPES.join(" / "))
    .requiredOption("--name <name>", "a name for the channel (letters, digits, . _ -)")
    .option("--webhook <url>", "dingtalk, feishu, wecom: the robot's whole webhook URL (instead of --access-token / --hook / --key)");
  const fields = fieldOptions();
  for (const f of fields) add.option(`${flagOf(f.key)} <value>`, f.help);
  add.option("--json", "print JSON").action(async (o: Record<string, string | boolean | undefined>) => {
    const options: Record<string, string> = {};
    for (const f of fields) if (typeof o[f.attr] === "string") options[f.key] = o[f.attr] as string;
    const r = await addAlertChannel(cli.open(), CLI_ACTOR, { name: String(o.name), type: String(o.type), options, webhook: o.webhook as string | undefined });
    if (!r.ok) throw new CliError(r.error);
    const shown = { name: r.channel.name, type: r.channel.type, config: maskConfig(r.channel.type, r.channel.config), ...(r.generatedSecret ? { secret: r.generatedSecret } : {}) };
    if (o.json) return printJson(shown);
    console.log(`${pc.green("alert channel added")}  ${pc.bold(r.channel.name)} (${r.channel.type})  ${pc.dim("send a sample: xpay alert test --name " + r.channel.name)}`);
    if (r.generatedSecret) console.log(`secret ${pc.bold(r.generatedSecret)}  ${pc.dim("(shown once: it signs X-Xpay-Signature; see the operator guide to verify it)")}`);
  });

  alert
    .command("list")
    .description("list alert channels (secrets masked) and the alerts firing now")
    .addHelpText("after", examples("xpay alert list", "xpay alert list --json"))
    .option("--json", "print JSON")
    .action(async (o: { json?: boolean }) => {
      const gw = cli.open();
      const channels = (await gw.store.alerts.listChannels()).map((c) => ({ name: c.name, type: c.type, enabled: c.enabled, created_at: showTime(c.createdAt), config: maskConfig(c.type, c.config) }));
      const firing = (await gw.store.alerts.activeInstances()).map((i) => ({ key: i.key, since: showTime(i.finding.since), sent: i.notified, title: i.finding.title, command: i.finding.command }));
      if (o.json) return printJson({ channels, firing });
      printTable(channels.map((c) => ({ ...c, config: Object.entries(c.config).map(([k, v]) => `${k}=${v}`).join(" ") })), ["name", "type", "enabled", "created_at", "config"]);
      if (firing.length) {
        console.log(`\n${pc.yellow(`firing now: ${firing.length}`)}`);
        printTable(firing, ["key", "since", "sent", "title"]);
      }
    });

  alert
    .command("test")
    .description("send a sample message through one channel now and print its answer")
    .addHelpText("after", examples("xpay alert test --name tg", "xpay alert test --name ops --json"))
    .requiredOption("--name <name>", "the channel")
    .option("--json", "print JSON")
    .action(async (o: { name: string; json?: boolean }) => {
      const r = await testAlertChannel(cli.open(), o.name);
      if (!r) throw new CliError(`no alert channel named ${o.name} (see xpay alert list)`);
      const a = r.attempt;
      const out = { channel: r.channel.name, type: r.channel.type, ok: a.ok, http_status: a.httpStatus, answer: a.answer, error: a.error, ms: a.durationMs };
      if (o.json) printJson(out);
      else console.log(`${a.ok ? pc.green("sent") : pc.red("failed")}  ${r.channel.name} (${r.channel.type})  ${a.httpStatus !== null ? `HTTP ${a.httpStatus}  ` : ""}${a.durationMs} ms${a.error ? `  ${a.error}` : ""}\n${pc.dim("answer:")} ${a.answer || "(empty)"}`);
      if (!a.ok) process.exitCode = 1;
    });

  alert
    .command("remove")
    .description("remove an alert channel (what was sent through it stays in the history)")
    .addHelpText("after", examples("xpay alert remove --name tg"))
    .requiredOption("--name <name>", "the channel")
    .action(async (o: { name: string }) => {
      if (!(await removeAlertChannel(cli.open(), CLI_ACTOR, o.name))) throw new CliError(`no alert channel named ${o.name} (see xpay alert list)`);
      console.log(`alert channel ${o.name} removed`);
    });

  alert
    .command("history")
    .description("what was sent, to which channel, and the outcome of its last attempt; newest first")
    .addHelpText("after", examples("xpay alert history", "xpay alert history --limit 100 --json"))
    .option("--limit <n>", "at most n messages", "30")
    .option("--json", "print JSON")
    .action(async (o: { limit: string; json?: boolean }) => {
      const rows = (await cli.open().store.alerts.history({ limit: intArg("--limit", o.limit, { min: 1 })! })).map(historyView);
      if (o.json) return printJson(rows);
      printTable(rows.map((r) => ({ ...r, title: r.title.slice(0, 70), error: r.error.slice(0, 50) })), ["id", "at", "channel", "event", "status", "attempts", "http", "error", "title"]);
    });
}

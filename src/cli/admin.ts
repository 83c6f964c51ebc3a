// `xpay admin ...`: the console's operators and their sessions from the terminal: add, passwd,
// list, remove, sessions, revoke (the way out when a password leaks), failed-logins (the login
// throttle's counters). Every change goes through
// the console's own core functions and is audited with the actor `cli`.
import type { Command } from "commander";
import pc from "picocolors";
import { CLI_ACTOR } from "../core/admin/audit.ts";
import { NAME_MESSAGES, nameProblem, PASSWORD_MESSAGES } from "../core/admin/credentials.ts";
import { recentLoginFailures } from "../core/admin/login-failures.ts";
import { addOperator, changePassword, removeOperator } from "../core/admin/operators.ts";
import { liveSessions, revokeAllSessions, revokeSession } from "../core/admin/sessions.ts";
import { type Cli, CliError, printJson, printTable, requireInt, useServedBaseUrl } from "./context.ts";
import { examples } from "./help.ts";
import { readNewPassword } from "./password-input.ts";
import { showTime } from "./time.ts";

async function mustFind(cli: Cli, name: string) {
  const operator = await cli.open().store.admin.findOperator(name);
  if (!operator) throw new CliError(`no operator named ${name} (see xpay admin list)`);
  return operator;
}

export function register(program: Command, cli: Cli): void {
  const admin = program
    .command("admin")
    .description("operators of the web console (/admin) and their sessions")
    .addHelpText("after", examples("xpay admin add --user alice", "xpay admin list", "xpay admin revoke --user alice --all"));

  admin
    .command("add")
    .description("add an operator; the password is typed twice at the prompt, or piped with --password-stdin")
    .addHelpText("after", examples("xpay admin add --user alice", "xpay admin add --user alice --password-stdin"))
    .requiredOption("--user <name>", "user name: letters, digits and . _ @ - (at most 32)")
    .option("--password-stdin", "read the password from stdin (one line; e.g. printf '%s\\n' \"$PASSWORD\" | xpay admin ...) instead of a prompt")
    .action(async (o: { user: string; passwordStdin?: boolean }) => {
      const bad = nameProblem(o.user);
      if (bad) throw new CliError(NAME_MESSAGES[bad]);
      const gw = cli.open();
      if (await gw.store.admin.findOperator(o.user)) throw new CliError(`an operator named ${o.user} exists already`);
      const r = await addOperator(gw, CLI_ACTOR, o.user, await readNewPassword({ stdin: o.passwordStdin, user: o.user }));
      if (r.kind === "bad_name") throw new CliError(NAME_MESSAGES[r.problem]);
      if (r.kind === "bad_password") throw new CliError(PASSWORD_MESSAGES[r.problem]);
      if (r.kind === "exists") throw new CliError(`an operator named ${o.user} exists already`);
      await useServedBaseUrl(gw);
      console.log(`${pc.green("operator added")}  ${pc.bold(r.operator.name)}  ${pc.dim(`log in at ${gw.baseUrl}/admin`)}`);
    });

  admin
    .command("passwd")
    .description("set an operator's password; logs out every session of that operator")
    .addHelpText("after", examples("xpay admin passwd --user alice", "xpay admin passwd --user alice --password-stdin"))
    .requiredOption("--user <name>", "the operator")
    .option("--password-stdin", "read the password from stdin (one line; e.g. printf '%s\\n' \"$PASSWORD\" | xpay admin ...) instead of a prompt")
    .action(async (o: { user: string; passwordStdin?: boolean }) => {
      const operator = await mustFind(cli, o.user);
      const r = await changePassword(cli.open(), CLI_ACTOR, operator.name, await readNewPassword({ stdin: o.passwordStdin, user: operator.name }));
      if (r.kind === "bad_password") throw new CliError(PASSWORD_MESSAGES[r.problem]);
      if (r.kind !== "changed") throw new CliError(`no operator named ${o.user}`);
      console.log(`${pc.green("password changed")}  ${pc.bold(operator.name)}  ${pc.dim(`${r.revoked} session(s) logged out`)}`);
    });

  admin
    .command("list")
    .description("list operators")
    .addHelpText("after", examples("xpay admin list", "xpay admin list --json"))
    .option("--json", "print JSON")
    .action(async (o: { json?: boolean }) => {
      const rows = (await cli.open().store.admin.listOperators()).map((op) => ({
        name: op.name, created: showTime(op.createdAt), password_changed: showTime(op.passwordChangedAt), last_login: op.lastLoginAt ? showTime(op.lastLoginAt) : "never",
      }));
      if (o.json) return printJson(rows);
      printTable(rows, ["name", "created", "password_changed", "last_login"]);
    });

  admin
    .command("remove")
    .description("remove an operator and end its sessions")
    .addHelpText("after", examples("xpay admin remove --user bob"))
    .requiredOption("--user <name>", "the operator")
    .action(async (o: { user: string }) => {
      const gw = cli.open();
      const removed = await removeOperator(gw, CLI_ACTOR, o.user);
      if (!removed) throw new CliError(`no operator named ${o.user} (see xpay admin list)`);
      console.log(`${pc.green("operator removed")}  ${pc.bold(removed.name)}`);
      if ((await gw.store.admin.countOperators()) === 0) console.log(pc.dim("no operator is left: the next `xpay serve` prints a one-time setup link (or run xpay admin add)"));
    });

  admin
    .command("sessions")
    .description("list live console sessions (all operators, or one)")
    .addHelpText("after", examples("xpay admin sessions", "xpay admin sessions --user alice --json"))
    .option("--user <name>", "only this operator's")
    .option("--json", "print JSON")
    .action(async (o: { user?: string; json?: boolean }) => {
      const operator = o.user === undefined ? undefined : await mustFind(cli, o.user);
      const rows = (await liveSessions(cli.open(), operator?.id)).map((s) => ({
        id: s.id, user: s.operatorName, created: showTime(s.createdAt), last_used: showTime(s.lastUsedAt), ip: s.ip, last_ip: s.lastIp, user_agent: s.userAgent,
      }));
      if (o.json) return printJson(rows);
      printTable(rows.map((r) => ({ ...r, user_agent: r.user_agent.length > 50 ? `${r.user_agent.slice(0, 49)}…` : r.user_agent })), ["id", "user", "created", "last_used", "ip", "last_ip", "user_agent"]);
    });

  admin
    .command("revoke")
    .description("end one session (--session ID), or every session of an operator (--user NAME --all)")
    .addHelpText("after", examples("xpay admin revoke --session 12", "xpay admin revoke --user alice --all"))
    .option("--session <id>", "the session id (see xpay admin sessions)")
    .option("--user <name>", "the operator, with --all")
    .option("--all", "every session of --user")
    .action(async (o: { session?: string; user?: string; all?: boolean }) => {
      const gw = cli.open();
      if (o.session !== undefined && o.user === undefined && !o.all) {
        const id = requireInt("--session", o.session, { min: 1 });
        if (!(await revokeSession(gw, CLI_ACTOR, id))) throw new CliError(`no session ${id} (see xpay admin sessions)`);
        return console.log(`${pc.green("session revoked")}  ${id}`);
      }
      if (o.session === undefined && o.user !== undefined && o.all) {
        const operator = await mustFind(cli, o.user);
        const n = await revokeAllSessions(gw, CLI_ACTOR, operator);
        return console.log(`${pc.green("sessions revoked")}  ${pc.bold(operator.name)}  ${n}`);
      }
      throw new CliError("give either --session ID, or --user NAME --all");
    });

  admin
    .command("failed-logins")
    .description("failed console logins, counted per minute, typed user name, browser and address (newest first)")
    .addHelpText("after", examples("xpay admin failed-logins", "xpay admin failed-logins --hours 168 --user admin --json"))
    .option("--hours <n>", "how far back", "24")
    .option("--user <name>", "only this typed user name (any case)")
    .option("--json", "print JSON")
    .action(async (o: { hours: string; user?: string; json?: boolean }) => {
      const hours = requireInt("--hours", o.hours, { min: 1 });
      const found = await recentLoginFailures(cli.open(), { hours, user: o.user });
      if (o.json) {
        return printJson(found.map((r) => ({ window_start: r.window, user: r.user, ip: r.ip, known_browser: r.device !== "", failed: r.failed, refused: r.refused, first_at: r.firstAt, last_at: r.lastAt })));
      }
      const rows = found.map((r) => ({ minute: showTime(r.window), user: r.user, ip: r.ip, browser: r.device ? "known" : "unknown", failed: r.failed, refused: r.refused }));
      printTable(rows, ["minute", "user", "ip", "browser", "failed", "refused"]);
    });
}

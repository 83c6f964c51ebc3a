// `xpay serve` and the operator console: where it listens (--no-admin, --admin-host/--admin-port,
// checked before anything is opened), and the start lines: its own listener's address, and, while
// the database has no operator, the one-time setup link.
import type { Command } from "commander";
import pc from "picocolors";
import { issueSetupToken } from "../core/admin/setup.ts";
import type { Gateway } from "../core/gateway.ts";
import type { AdminPlacement } from "../server/admin-listener.ts";
import type { ServeLogger } from "../server/logger.ts";
import { CliError } from "./errors.ts";
import { selfCommand } from "./self.ts";
import { checkHostSyntax, checkPort, probeListen } from "./serve-input.ts";

export interface AdminFlags {
  /** false with --no-admin. */
  admin?: boolean;
  adminHost?: string;
  adminPort?: string;
}

export function adminOptions(cmd: Command): Command {
  return cmd
    .option("--no-admin", "do not serve the operator console: /admin answers 404 (the admin_enabled setting does the same for every run)")
    .option("--admin-host <host>", "serve the console on a listener of its own at this address, e.g. 127.0.0.1 (needs --admin-port); the main listener then has no /admin")
    .option("--admin-port <port>", "port of the console's own listener (its address defaults to 127.0.0.1)");
}

/** Where the console goes; its own listener's address is probed like the main one. */
export function adminPlacement(o: AdminFlags, main: { host: string; port: number }): AdminPlacement {
  const own = o.adminHost !== undefined || o.adminPort !== undefined;
  if (o.admin === false) {
    if (own) throw new CliError("--no-admin turns the console off; leave out --admin-host and --admin-port, or drop --no-admin");
    return "off";
  }
  if (!own) return "main";
  if (o.adminPort === undefined) throw new CliError("--admin-host needs --admin-port: the console's listener must have a port of its own");
  const port = checkPort(o.adminPort, "--admin-port");
  const host = checkHostSyntax(o.adminHost ?? "127.0.0.1", "--admin-host");
  if (port !== 0 && port === main.port && (host === main.host || host === "0.0.0.0" || main.host === "0.0.0.0")) {
    throw new CliError(`--admin-port ${port} is the main listener's port; give the console another one`);
  }
  probeListen(host, port, "--admin-host");
  return { host, port };
}

/** Prints where the console is (its own listener) and, when no operator exists yet, the setup link. */
export async function announceConsole(gw: Gateway, log: ServeLogger, placement: AdminPlacement, consoleBase: string): Promise<void> {
  if (placement === "off" || (await gw.settings()).str("admin_enabled") !== "1") return;
  if (typeof placement === "object") log.notice("admin.listening", { url: `${consoleBase}/admin` }, `${pc.green("console")} on ${pc.bold(`${consoleBase}/admin`)}`);
  const token = await issueSetupToken(gw);
  if (!token) return;
  const url = `${consoleBase}/admin/setup?token=${token}`;
  const add = `${selfCommand()} admin add --user NAME`;
  log.notice(
    "admin.setup_link",
    { url, valid_hours: 24, message: `no console operator yet: open this link once to create the first one, or run ${add}` },
    `${pc.yellow("no console operator yet:")} open ${pc.bold(url)} within 24 hours to create the first one (one use; or run ${pc.bold(add)})`,
  );
}

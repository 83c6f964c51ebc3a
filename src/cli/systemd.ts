// `xpay systemd`: prints a hardened unit made from the operator's own values (systemd-unit.ts),
// with ExecStart on this very executable. Nothing is installed: the operator reads it and writes
// it to /etc/systemd/system/xpay.service.
import type { Command } from "commander";
import { checkHostSyntax, checkPort } from "./serve-input.ts";
import { CliError } from "./errors.ts";
import { examples } from "./help.ts";
import { selfExecStart } from "./self.ts";
import { unitBaseUrl, unitDb, unitText, unitUser } from "./systemd-unit.ts";
import { backupScheduleArgs, type BackupScheduleFlags } from "./backup-schedule-input.ts";

interface SystemdFlags extends BackupScheduleFlags {
  baseUrl: string;
  user: string;
  port: string;
  host: string;
  envFile?: string;
  tlsCert?: string;
  tlsKey?: string;
}

/** The database is xpay's own --db (`xpay --db /srv/xpay.db systemd ...`); XPAY_DB of this shell is not read (it may be a relative dev path). */
export function register(program: Command): void {
  program
    .command("systemd")
    .description("print a hardened systemd unit that runs this xpay serve (its own user, /var/lib/xpay, read-only system); redirect it into /etc/systemd/system/xpay.service")
    .addHelpText(
      "after",
      examples(
        "xpay systemd --base-url https://pay.your-shop.com   # | sudo tee /etc/systemd/system/xpay.service",
        "xpay systemd --base-url https://pay.your-shop.com --backup-dir /var/lib/xpay/backups --backup-every 24h --backup-keep 7",
        "xpay systemd --base-url https://pay.your-shop.com --host 0.0.0.0 --port 443 --tls-cert /etc/xpay/cert.pem --tls-key /etc/xpay/key.pem",
      ),
    )
    .requiredOption("--base-url <url>", "the public URL payers open (not a placeholder, not 127.0.0.1)")
    .option("--user <name>", "system user the service runs as (the one your shell runs xpay as)", "xpay")
    .option("--env-file <path>", "EnvironmentFile= for values that must not be world-readable (XPAY_DB=postgres://...)")
    .option("--port <port>", "port serve listens on", "8080")
    .option("--host <host>", "address serve binds (127.0.0.1 behind a reverse proxy on this machine)", "127.0.0.1")
    .option("--tls-cert <file>", "serve HTTPS itself with this certificate chain (PEM); reloaded by systemctl reload")
    .option("--tls-key <file>", "the certificate's private key (PEM)")
    .option("--backup-dir <dir>", "serve's backup schedule: the folder (see serve --backup-dir)")
    .option("--backup-every <duration>", "how often, e.g. 24h")
    .option("--backup-keep <n>", "how many backups to keep")
    .action((o: SystemdFlags) => {
      const baseUrl = unitBaseUrl(o.baseUrl);
      const user = unitUser(o.user);
      const port = checkPort(o.port, "--port");
      if (port === 0) throw new CliError("--port 0 picks a new port at each start, which a reverse proxy cannot follow; give a fixed one such as 8080");
      const host = checkHostSyntax(o.host, "--host");
      const given = program.opts().db as string | undefined;
      const db = given === undefined ? (o.envFile ? "" : "/var/lib/xpay/xpay.db") : unitDb(given, o.envFile);
      const envFile = o.envFile === undefined ? undefined : absolute(o.envFile, "--env-file");
      if ((o.tlsCert === undefined) !== (o.tlsKey === undefined)) throw new CliError("--tls-cert and --tls-key go together: give both files, or neither");
      const serveArgs = backupScheduleArgs(o, (d) => absolute(d, "--backup-dir"));
      const self = selfExecStart();
      const note = self.fromSource
        ? "from a source checkout: ExecStart runs this checkout's bun and src/cli/main.ts (ProtectHome=yes hides /home, so keep the checkout under /opt); on a server, prefer the release binary (install -m 0755 xpay-<version>-linux-x64 /usr/local/bin/xpay) and print the unit with it"
        : undefined;
      if (note) process.stderr.write(`note: ${note}\n`);
      process.stdout.write(
        unitText({
          baseUrl, user, db, port, host, exec: self.words, envFile, serveArgs, note,
          tlsCert: o.tlsCert && absolute(o.tlsCert, "--tls-cert"), tlsKey: o.tlsKey && absolute(o.tlsKey, "--tls-key"),
        }),
      );
    });
}

function absolute(path: string, flag: string): string {
  if (!path.startsWith("/")) throw new CliError(`${flag} must be an absolute path (the service does not start in your folder), not ${JSON.stringify(path)}`);
  return path;
}

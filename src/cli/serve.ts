import type { Command } from "commander";
import pc from "picocolors";
import { refreshGroups } from "../core/clients/keyed.ts";
import { testDatabaseProblem, testSettingsIn } from "../core/test-database.ts";
import { forceBlockPrivate } from "../core/notify/target.ts";
import { formatIsoLocal, formatLocal } from "../core/time.ts";
import { registerInstance, secondInstanceMessage } from "../server/instances.ts";
import { createLogger, type LogFormat, type ServeLogger } from "../server/logger.ts";
import { describeCert, readTls, TlsFileError, type TlsFiles } from "../server/tls-files.ts";
import { accessSync, constants, mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { backupSchedule, type BackupScheduleFlags } from "./backup-schedule-input.ts";
import { DatabaseDamagedError } from "../server/start-check.ts";
import { type Cli, CliError } from "./context.ts";
import { examples } from "./help.ts";
import { describeDb } from "./open-store.ts";
import { isPostgresUrl } from "../store/postgres/url.ts";
import { checkBaseUrl, checkHostSyntax, checkLogFormat, checkPort, probeListen, proxyHops, sourceOf } from "./serve-input.ts";
import { type AdminFlags, adminOptions, adminPlacement, announceConsole } from "./serve-admin.ts";

interface ServeFlags extends AdminFlags, BackupScheduleFlags {
  tlsCert?: string;
  tlsKey?: string;
  port: string;
  host: string;
  baseUrl?: string;
  trustProxy?: boolean | string;
  logFormat: string;
  notifyBlockPrivate?: boolean;
}

export function register(program: Command, cli: Cli): void {
  const command = program
    .command("serve")
    .description("run the gateway (HTTP server and notification worker)")
    .addHelpText("after", examples("xpay serve", "xpay serve --host 127.0.0.1 --port 8080 --base-url https://pay.example.com --trust-proxy --log-format json", "XPAY_DB=/var/lib/xpay/xpay.db xpay serve", "xpay serve --admin-host 127.0.0.1 --admin-port 8081", "xpay serve --no-admin"))
    .option("--port <port>", "port to listen on (XPAY_PORT)", process.env.XPAY_PORT ?? "8080")
    .option("--host <host>", "address to bind (XPAY_HOST); 0.0.0.0 for every interface", process.env.XPAY_HOST ?? "127.0.0.1")
    .option("--base-url <url>", "public base URL used in cashier links (XPAY_BASE_URL)")
    .option("--trust-proxy [hops]", "behind reverse proxies: take the client address from the X-Forwarded-For entry the proxy appended; hops = how many proxies append (default 1; XPAY_TRUST_PROXY=N)")
    .option("--notify-block-private", "refuse notify_url targets on private, loopback and link-local addresses (XPAY_NOTIFY_BLOCK_PRIVATE=1)")
    .option("--log-format <format>", "json or pretty (XPAY_LOG_FORMAT)", process.env.XPAY_LOG_FORMAT ?? "pretty")
    .option("--tls-cert <file>", "serve HTTPS itself: the certificate chain (PEM; re-read on SIGHUP)")
    .option("--tls-key <file>", "the certificate's private key (PEM; re-read on SIGHUP)")
    .option("--backup-dir <dir>", "back up on a schedule into this folder (xpay-<UTC time>.db, mode 0600; created 0700 if missing)")
    .option("--backup-every <duration>", "with --backup-dir: how often, e.g. 30m, 6h, 24h (default 24h)")
    .option("--backup-keep <n>", "with --backup-dir: how many of the newest backups to keep (default 7)");
  adminOptions(command)
    .action(async (o: ServeFlags, cmd: Command) => {
      const format = checkLogFormat(o.logFormat, sourceOf(cmd, "logFormat", "--log-format", "XPAY_LOG_FORMAT"));
      try {
        await serve(cli, cmd, o, format);
      } catch (e) {
        if (format !== "json" || !(e instanceof CliError)) throw e;
        // A collector that reads JSON lines gets the refusal as one too (on stderr, exit 1).
        cli.close();
        process.stderr.write(JSON.stringify({ time: formatIsoLocal(Date.now()), level: "error", event: "serve.failed", error: e.message }) + "\n");
        process.exit(1);
      }
    });
}

async function serve(cli: Cli, cmd: Command, o: ServeFlags, format: LogFormat): Promise<void> {
  // Every input is checked, and the address bound once, before the database is opened or created.
  const port = checkPort(o.port, sourceOf(cmd, "port", "--port", "XPAY_PORT"));
  const hostSource = sourceOf(cmd, "host", "--host", "XPAY_HOST");
  const host = checkHostSyntax(o.host, hostSource);
  const explicitBase = o.baseUrl !== undefined ? checkBaseUrl(o.baseUrl, "--base-url") : process.env.XPAY_BASE_URL !== undefined ? checkBaseUrl(process.env.XPAY_BASE_URL, "XPAY_BASE_URL") : undefined;
  const shownHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  const tls = tlsFiles(o);
  const backups = backupSchedule(o);
  if (backups) checkBackupDir(backups.dir);
  const baseUrl = explicitBase ?? `${tls ? "https" : "http"}://${shownHost}:${port}`;
  const trustProxy = proxyHops(o.trustProxy ?? process.env.XPAY_TRUST_PROXY, o.trustProxy !== undefined ? "--trust-proxy" : "XPAY_TRUST_PROXY");
  const where = describeDb(cli.dbPath()); // an empty --db / XPAY_DB is refused here too, before the port is probed
  // The console's flags first: a flag that cannot work is the line to show, even when the port is taken.
  const admin = adminPlacement(o, { host, port });
  probeListen(host, port, hostSource);

  const gw = cli.open({ baseUrl, trustProxy, baseUrlExplicit: explicitBase !== undefined });
  // xpay dev's public platform key signs a V2 "paid" anyone can forge: never served for real.
  const test = testSettingsIn(await gw.store.getSettings());
  if (test.length > 0) throw new CliError(testDatabaseRefusal(where, test));
  const log = createLogger(format, undefined, (await gw.settings()).str("timezone"));
  gw.log = log;
  if (o.notifyBlockPrivate || process.env.XPAY_NOTIFY_BLOCK_PRIVATE === "1") forceBlockPrivate(gw);
  let server;
  try {
    // Loaded here, not at the top: every other command would pay for the server, its protocols and
    // the console at each start (a quarter more CPU per `xpay settings get`).
    const { startServer } = await import("../server/serve.ts");
    server = await startServer(gw, { port, host, admin, tls, backups: backups ?? undefined });
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (e instanceof DatabaseDamagedError) throw new CliError(damagedMessage(where, e.message));
    if (code === "EADDRINUSE") throw new CliError(`port ${port} on ${host} is already in use; choose another with --port`);
    if (e instanceof TlsFileError) throw new CliError(e.message);
    const msg = e instanceof Error ? e.message : String(e);
    if (/locked|busy/i.test(msg)) throw new CliError(`database ${where} is locked by another process (${msg})`);
    if (/readonly|read-only|unable to open|disk/i.test(msg)) throw new CliError(`database ${where} is not writable (${msg})`);
    throw new CliError(`cannot start the server: ${msg}`);
  }
  // --port 0 binds a free port: links and the start line name the port bound, not 0.
  if (explicitBase === undefined && port === 0) gw.baseUrl = `${tls ? "https" : "http"}://${shownHost}:${server.port}`;
  const instances = await registerInstance(gw, server.port);
  for (const other of instances.others) {
    // On PostgreSQL several instances are what the database is for: said, not warned about.
    const shared = isPostgresUrl(cli.dbPath());
    const fields = { message: secondInstanceMessage(other, formatLocal(other.started, log.timeZone), shared), other_pid: other.pid, other_host: other.host, other_port: other.port };
    if (shared) log.notice("serve.other_instance", fields, pc.dim(fields.message));
    else log.warn("serve.second_instance", fields);
  }
  // Before "listening": a supervisor (or a test) may stop the server as soon as it reads that line,
  // and a signal without a handler would end the process before it deregisters.
  const running = server;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.notice("stopping", { signal }, pc.dim(`${signal}: stopping`));
    await running.stop();
    await instances.stop();
    cli.close();
    log.notice("stopped", { signal }, pc.dim("stopped"));
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
  // SIGHUP (systemctl reload) re-reads the certificate files; without TLS there is nothing to
  // reload, and the default action (exit) would turn a reload into an outage.
  process.on("SIGHUP", () => void reloadTls(running, tls, log));
  await gw.store.setSetting("base_url", gw.baseUrl); // what `order inspect` prints links with
  // Report groups from the clients as they are (a database from before them, or changed offline).
  await refreshGroups(gw);
  log.notice(
    "listening",
    { url: server.url, db: where, base_url: gw.baseUrl, time_zone: log.timeZone },
    `${pc.green("xpay listening")} on ${pc.bold(server.url)}  ${pc.dim(`db ${where}  base url ${gw.baseUrl}  times in ${log.timeZone}`)}`,
  );
  await announceConsole(gw, log, admin, server.adminUrl ?? (explicitBase ?? `${tls ? "https" : "http"}://${shownHost}:${server.port}`));
}

/** --tls-cert and --tls-key together, each readable now (read again by the server at start). */
function tlsFiles(o: ServeFlags): TlsFiles | undefined {
  if (o.tlsCert === undefined && o.tlsKey === undefined) return undefined;
  if (o.tlsCert === undefined || o.tlsKey === undefined) throw new CliError("--tls-cert and --tls-key go together: give the certificate chain and its private key (PEM files)");
  const files = { cert: resolve(o.tlsCert), key: resolve(o.tlsKey) };
  try {
    readTls(files);
  } catch (e) {
    throw new CliError(e instanceof Error ? e.message : String(e));
  }
  return files;
}

/** The schedule's folder exists (or is made, 0700) and takes files, before the server starts. */
function checkBackupDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    accessSync(dir, constants.W_OK);
  } catch (e) {
    const code = (e as { code?: string }).code ?? String(e);
    throw new CliError(`--backup-dir ${dir} cannot take backups (${code}); create it writable for this user (under systemd: inside /var/lib/xpay, or listed in ReadWritePaths=)`);
  }
}

async function reloadTls(server: { reloadTls?(): Promise<void> }, tls: TlsFiles | undefined, log: ServeLogger): Promise<void> {
  if (!tls || !server.reloadTls) return log.notice("reload", { tls: false }, pc.dim("SIGHUP: nothing to reload (no --tls-cert)"));
  try {
    await server.reloadTls();
    const cert = describeCert(tls);
    log.notice("tls.reloaded", { cert: tls.cert, subject: cert.subject, expires: cert.expires }, `${pc.green("tls reloaded")} ${tls.cert} ${pc.dim(`${cert.subject}, expires ${cert.expires}`)}`);
  } catch (e) {
    log.error("tls.reload_failed", { error: e instanceof Error ? e.message : String(e), kept: "the certificate served before" });
  }
}

/** One line: which database, what of xpay dev it holds, how to begin a real one (or keep what was set up). */
export function testDatabaseRefusal(where: string, found: string[]): string {
  return `${testDatabaseProblem(`database ${where}`, found)}; xpay serve never runs on a test database: begin a real one with \`xpay --db /var/lib/xpay/xpay.db serve\` (a new file, or an empty postgres:// database), or keep what you set up with \`xpay db copy --from ${where} --to NEW --drop-test-data\``;
}

/** One line: which file, what the check found, what to do. */
export function damagedMessage(path: string, finding: string): string {
  return `database ${path} is damaged (integrity check: ${finding}); refusing to serve from it: restore the last backup (xpay backup) to a new path and start on that, and keep the damaged file for inspection`;
}

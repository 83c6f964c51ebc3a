// The systemd unit `xpay systemd` prints: the text, and the refusals of what must not go into it.
// A copied example kept `XPAY_BASE_URL=https://pay.example.com`, and every cashier link then pointed
// at a domain nobody owns; the unit is now made from the operator's own values, or refused.
import { isIP } from "node:net";
import { dirname, isAbsolute, resolve } from "node:path";
import { isPostgresUrl } from "../store/postgres/url.ts";
import { CliError } from "./errors.ts";
import { checkBaseUrl } from "./serve-input.ts";

export interface UnitOptions {
  baseUrl: string;
  user: string;
  db: string;
  port: number;
  host: string;
  /** Words of ExecStart before `serve` (the binary, or bun and main.ts). */
  exec: string[];
  /** EnvironmentFile= (for a postgres:// URL, which holds a password). */
  envFile?: string;
  tlsCert?: string;
  tlsKey?: string;
  /** Extra `serve` words (the backup schedule). */
  serveArgs?: string[];
  /** A comment line at the top (from source: the unit wants the release binary). */
  note?: string;
}

const RESERVED = /(^|\.)(example|test|invalid|localhost)$|(^|\.)example\.(com|net|org)$/i;

/** Why a base URL is not one payers can open; null when it may be. */
export function placeholderProblem(baseUrl: string): string | null {
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (RESERVED.test(host)) return `${host} is a placeholder (a reserved example name)`;
  if (host === "0.0.0.0" || host === "::" || host === "::1") return `${host} is not an address payers can reach`;
  if (isIP(host) === 4 && host.startsWith("127.")) return `${host} is this machine's loopback address, which payers cannot reach`;
  if (host === "::ffff:127.0.0.1" || /^::ffff:7f/.test(host)) return `${host} is a loopback address, which payers cannot reach`;
  return null;
}

/** The --base-url, refused in one line when it is a placeholder or this machine only. */
export function unitBaseUrl(value: string): string {
  const url = checkBaseUrl(value, "--base-url");
  const problem = placeholderProblem(url);
  if (problem) throw new CliError(`--base-url ${url}: ${problem}; pass the public URL payers open the cashier under, the one your reverse proxy or DNS serves, e.g. --base-url https://pay.your-shop.com`);
  return url;
}

export function unitUser(value: string): string {
  if (!/^[a-z_][a-z0-9_-]{0,31}$/.test(value) || value === "root") throw new CliError(`--user takes a system user name such as xpay (not root), not ${JSON.stringify(value)}`);
  return value;
}

/** `--db`: an absolute file path (systemd starts in /), or a postgres:// URL only through an env file. */
export function unitDb(value: string, envFile: string | undefined): string {
  if (isPostgresUrl(value)) {
    if (envFile) throw new CliError("--db: with --env-file, put XPAY_DB=postgres://... in that file and leave --db out (a unit file is readable by every user; the URL holds a password)");
    throw new CliError("--db: a postgres:// URL holds a password and a unit file is readable by every user; write XPAY_DB=postgres://... into /etc/xpay/xpay.env (mode 0600) and pass --env-file /etc/xpay/xpay.env instead");
  }
  if (!isAbsolute(value)) throw new CliError(`--db must be an absolute path (the service does not start in your folder), e.g. --db /var/lib/xpay/xpay.db, not ${JSON.stringify(value)}`);
  return resolve(value);
}

/** systemd's own quoting: a word with a space or a quote in double quotes, `%` doubled (and `$` in a command line). */
function q(word: string, exec = false): string {
  const specifiers = word.replace(/%/g, "%%");
  const escaped = exec ? specifiers.replace(/\$/g, "$$$$") : specifiers;
  return /[\s"'\\;]/.test(escaped) ? `"${escaped.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"` : escaped;
}

export function unitText(o: UnitOptions): string {
  const state = "/var/lib/xpay";
  const dbFolder = o.envFile && !o.db ? null : dirname(o.db);
  const serve = ["serve", "--host", o.host, "--port", String(o.port)];
  // Behind a proxy on this machine (a loopback bind) the client address comes from X-Forwarded-For;
  // on a public bind nothing in front may be trusted to set it.
  if (/^127\.|^::1$|^localhost$/.test(o.host)) serve.push("--trust-proxy");
  if (o.tlsCert && o.tlsKey) serve.push("--tls-cert", o.tlsCert, "--tls-key", o.tlsKey);
  serve.push(...(o.serveArgs ?? []));
  const lowPort = o.port > 0 && o.port < 1024;
  const lines = [
    "# xpay: made by `xpay systemd`; install it as /etc/systemd/system/xpay.service",
    ...(o.note ? [`# ${o.note}`] : []),
    `# sudo useradd --system --home ${state} --create-home ${o.user}   # once; your shell runs xpay as this user too`,
    "# sudo systemctl daemon-reload && sudo systemctl enable --now xpay",
    "[Unit]",
    "Description=xpay payment gateway",
    "After=network-online.target",
    "Wants=network-online.target",
    "",
    "[Service]",
    "Type=simple",
    `User=${o.user}`,
    `Group=${o.user}`,
    // systemd creates /var/lib/xpay owned by the user (0700) before the start.
    "StateDirectory=xpay",
    "StateDirectoryMode=0700",
    `WorkingDirectory=${state}`,
    "UMask=0077",
    ...(o.db ? [`Environment=${q(`XPAY_DB=${o.db}`)}`] : []),
    ...(o.envFile ? [`EnvironmentFile=${q(o.envFile)}`] : []),
    `Environment=${q(`XPAY_BASE_URL=${o.baseUrl}`)}`,
    "Environment=XPAY_LOG_FORMAT=json",
    `ExecStart=${[...o.exec, ...serve].map((w) => q(w, true)).join(" ")}`,
    // SIGHUP re-reads the TLS certificate files (a renewed certificate without a restart).
    "ExecReload=/bin/kill -HUP $MAINPID",
    // SIGTERM: in-flight requests and notification attempts finish, then exit 0.
    "KillSignal=SIGTERM",
    "TimeoutStopSec=90",
    "Restart=on-failure",
    "RestartSec=2",
    "NoNewPrivileges=yes",
    "ProtectSystem=strict",
    "ProtectHome=yes",
    "PrivateTmp=yes",
    "PrivateDevices=yes",
    "ProtectKernelTunables=yes",
    "ProtectKernelModules=yes",
    "ProtectKernelLogs=yes",
    "ProtectControlGroups=yes",
    "ProtectClock=yes",
    "ProtectHostname=yes",
    "RestrictNamespaces=yes",
    "RestrictRealtime=yes",
    "RestrictSUIDSGID=yes",
    "LockPersonality=yes",
    "RemoveIPC=yes",
    "SystemCallArchitectures=native",
    // Bun's JIT writes and then runs machine code: MemoryDenyWriteExecute=yes would kill it.
    "# MemoryDenyWriteExecute stays off: Bun's JavaScript JIT needs writable executable memory",
    "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX",
    lowPort ? "CapabilityBoundingSet=CAP_NET_BIND_SERVICE" : "CapabilityBoundingSet=",
    ...(lowPort ? ["AmbientCapabilities=CAP_NET_BIND_SERVICE"] : []),
    ...(dbFolder && dbFolder !== state ? [`ReadWritePaths=${q(dbFolder)}`] : []),
    ...backupPaths(o.serveArgs ?? [], state),
    "",
    "[Install]",
    "WantedBy=multi-user.target",
    "",
  ];
  return lines.join("\n");
}

/** The folder of `--backup-dir`, which ProtectSystem=strict would otherwise keep read-only. */
function backupPaths(args: string[], state: string): string[] {
  const i = args.indexOf("--backup-dir");
  const dir = i >= 0 ? args[i + 1] : undefined;
  return dir && !dir.startsWith(`${state}/`) && dir !== state ? [`ReadWritePaths=${q(dir)}`] : [];
}

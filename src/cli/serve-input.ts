// `xpay serve` input, checked before the database is opened, so a typo is one line naming the flag
// or variable it came from (not "ENOENT ... listen" after a new database file was made).
import { CliError } from "./errors.ts";

/** Where a value came from, as the operator typed it: "--port" or "XPAY_PORT". */
export type Source = string;

const quoted = (v: string) => JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}...` : v);

/** The flag when the operator gave it, else the variable when it is set, else the flag (a default). */
export function sourceOf(cmd: { getOptionValueSource(key: string): string | undefined }, key: string, flag: string, env: string): Source {
  return cmd.getOptionValueSource(key) !== "cli" && process.env[env] !== undefined ? env : flag;
}

export function checkPort(value: string, source: Source): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) throw new CliError(`${source} must be a whole number from 0 to 65535 (0 picks a free port), not ${quoted(value)}`);
  return Number(value);
}

export function checkLogFormat(value: string, source: Source): "json" | "pretty" {
  if (value !== "json" && value !== "pretty") throw new CliError(`${source} must be json or pretty, not ${quoted(value)}`);
  return value;
}

/** An absolute http(s) URL without query, fragment or credentials; returned without trailing slashes. */
export function checkBaseUrl(value: string, source: Source): string {
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {}
  const ok = url !== null && (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "" && !url.username && !url.password &&
    /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/i.test(value);
  if (!ok) throw new CliError(`${source} must be an http:// or https:// URL such as https://pay.example.com (payers open the cashier links under it), not ${quoted(value)}`);
  return value.replace(/\/+$/, "");
}

export function checkHostSyntax(value: string, source: Source): string {
  if (value.trim() === "") throw new CliError(`${source} is empty; use 127.0.0.1 (this machine only) or 0.0.0.0 (every interface)`);
  if (/[\s/]/.test(value)) throw new CliError(`${source} takes an address or host name such as 127.0.0.1 or 0.0.0.0, not a URL: ${quoted(value)}`);
  return value;
}

/**
 * Binds the address once and lets it go: proves the host is an address of this machine and the
 * port is free before anything is written. (The real bind later still reports a port taken
 * meanwhile.)
 */
export function probeListen(host: string, port: number, hostSource: Source): void {
  let probe: ReturnType<typeof Bun.serve> | null = null;
  try {
    probe = Bun.serve({ hostname: host, port, fetch: () => new Response("") });
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === "EADDRINUSE") throw new CliError(`port ${port} on ${host} is already in use; choose another with --port`);
    if (code === "EACCES") throw new CliError(`port ${port} needs privileges on this system; use a port above 1023 (e.g. 8080) behind a reverse proxy`);
    const why = code === "EADDRNOTAVAIL" ? "is not an address of this machine" : "does not resolve to an address of this machine";
    throw new CliError(`${hostSource} ${host} ${why}; use 127.0.0.1 (this machine only), 0.0.0.0 (every interface) or one of this machine's own addresses`);
  } finally {
    probe?.stop(true);
  }
}

/** `--trust-proxy` alone is one proxy; a number is that many; unset or 0 trusts none. */
export function proxyHops(value: boolean | string | undefined, source: Source): number {
  if (value === undefined || value === false || value === "") return 0;
  if (value === true) return 1;
  if (!/^\d{1,2}$/.test(value)) throw new CliError(`${source} takes the number of proxies in front of xpay (1 for one nginx), not ${quoted(value.slice(0, 20))}`);
  return Number(value);
}

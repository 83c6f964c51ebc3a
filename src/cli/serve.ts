import type { Command } from "commander";
import pc from "picocolors";
import { forceBlockPrivate } from "../core/notify/target.ts";
import { createLogger } from "../server/logger.ts";
import { startServer } from "../server/serve.ts";
import { DatabaseDamagedError } from "../server/start-check.ts";
import { type Cli, CliError, requireInt } from "./context.ts";

export function register(program: Command, cli: Cli): void {
  program
    .command("serve")
    .description("run the gateway (HTTP server and notification worker)")
    .option("--port <port>", "port to listen on (XPAY_PORT)", process.env.XPAY_PORT ?? "8080")
    .option("--host <host>", "address to bind (XPAY_HOST); 0.0.0.0 for every interface", process.env.XPAY_HOST ?? "127.0.0.1")
    .option("--base-url <url>", "public base URL used in cashier links (XPAY_BASE_URL)")
    .option("--trust-proxy [hops]", "behind reverse proxies: take the client address from the X-Forwarded-For entry the proxy appended; hops = how many proxies append (default 1; XPAY_TRUST_PROXY=N)")
    .option("--notify-block-private", "refuse notify_url targets on private, loopback and link-local addresses (XPAY_NOTIFY_BLOCK_PRIVATE=1)")
    .option("--log-format <format>", "json or pretty (XPAY_LOG_FORMAT)", process.env.XPAY_LOG_FORMAT ?? "pretty")
    .action(async (o: { port: string; host: string; baseUrl?: string; trustProxy?: boolean | string; logFormat: string; notifyBlockPrivate?: boolean }) => {
      if (o.logFormat !== "json" && o.logFormat !== "pretty") throw new CliError("--log-format must be json or pretty");
      const port = requireInt("--port", o.port);
      if (port > 65535) throw new CliError("--port must be at most 65535");
      const baseUrl = o.baseUrl ?? process.env.XPAY_BASE_URL ?? `http://${o.host === "0.0.0.0" ? "127.0.0.1" : o.host}:${port}`;
      const baseUrlExplicit = o.baseUrl !== undefined || process.env.XPAY_BASE_URL !== undefined;
      const gw = cli.open({ baseUrl, trustProxy: proxyHops(o.trustProxy ?? process.env.XPAY_TRUST_PROXY), baseUrlExplicit });
      gw.log = createLogger(o.logFormat);
      if (o.notifyBlockPrivate || process.env.XPAY_NOTIFY_BLOCK_PRIVATE === "1") forceBlockPrivate(gw);
      let server;
      try {
        server = await startServer(gw, { port, host: o.host });
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (e instanceof DatabaseDamagedError) throw new CliError(damagedMessage(cli.dbPath(), e.message));
        if (code === "EADDRINUSE") throw new CliError(`port ${port} on ${o.host} is already in use; choose another with --port`);
        const msg = e instanceof Error ? e.message : String(e);
        if (/locked|busy/i.test(msg)) throw new CliError(`database ${cli.dbPath()} is locked by another process (${msg})`);
        if (/readonly|read-only|unable to open|disk/i.test(msg)) throw new CliError(`database ${cli.dbPath()} is not writable (${msg})`);
        throw new CliError(`cannot start the server: ${e instanceof Error ? e.message : String(e)}`);
      }
      await gw.store.setSetting("base_url", gw.baseUrl); // what `order inspect` prints links with
      console.log(`${pc.green("xpay listening")} on ${pc.bold(server.url)}  ${pc.dim(`db ${cli.dbPath()}  base url ${gw.baseUrl}`)}`);
      const running = server;
      let stopping = false;
      const stop = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        console.log(pc.dim(`${signal}: stopping`));
        await running.stop();
        cli.close();
        process.exit(0);
      };
      process.on("SIGINT", () => void stop("SIGINT"));
      process.on("SIGTERM", () => void stop("SIGTERM"));
    });
}

/** `--trust-proxy` alone is one proxy; a number is that many; unset or 0 trusts none. */
function proxyHops(value: boolean | string | undefined): number {
  if (value === undefined || value === false || value === "") return 0;
  if (value === true) return 1;
  if (!/^\d{1,2}$/.test(value)) throw new CliError(`--trust-proxy takes the number of proxies in front of xpay (1 for one nginx), not "${value.slice(0, 20)}"`);
  return Number(value);
}

/** One line: which file, what the check found, what to do. */
export function damagedMessage(path: string, finding: string): string {
  return `database ${path} is damaged (integrity check: ${finding}); refusing to serve from it: restore the last backup (xpay backup) to a new path and start on that, and keep the damaged file for inspection`;
}

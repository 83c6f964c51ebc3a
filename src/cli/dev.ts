// `xpay dev`: the gateway `xpay serve` runs, on a throwaway database seeded with a test merchant,
// plus the test-mode extras (the /dev/* routes, the marks on every answer, a compressed retry
// schedule) for a merchant developer's laptop or CI. It is its own command: `serve` reads no
// "dev" flag from anywhere, and this command reads no XPAY_* variable (an operator's XPAY_DB
// must never receive the public test merchant and keys).
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { DEV_MERCHANT_PRIVATE_KEY, DEV_MERCHANT_PUBLIC_KEY, DEV_PLATFORM_PUBLIC_KEY } from "../core/dev/keys.ts";
import { DEV_MARKER_KEY } from "../core/dev/mode.ts";
import { seedDevGateway } from "../core/dev/seed.ts";
import { formatIsoLocal } from "../core/time.ts";
import { pemToBase64 } from "../protocols/signing.ts";
import { openGateway } from "../server/bootstrap.ts";
import { devInfo, type DevInfo, KEY_FILES } from "../server/dev/info.ts";
import { createLogger } from "../server/logger.ts";
import { openDatabaseReadOnly } from "../store/db.ts";
import { peekSetting } from "../store/postgres/peek.ts";
import { describePostgresUrl, isPostgresUrl } from "../store/postgres/url.ts";
import { SqliteStore } from "../store/sqlite/index.ts";
import { storedSetting } from "../store/sqlite/maintenance.ts";
import { type Cli, CliError } from "./context.ts";
import { openFor } from "./database.ts";
import { describeDb, openStore } from "./open-store.ts";
import { exampleCreateCurl, quickStart } from "./dev-quickstart.ts";
import { examples } from "./help.ts";
import { selfCommand } from "./self.ts";
import { checkHostSyntax, checkPort, probeListen } from "./serve-input.ts";

interface DevFlags {
  port: string;
  host: string;
  notifyUrl: string;
  json?: boolean;
}

export function register(program: Command, _cli: Cli): void {
  program
    .command("dev")
    .description("test gateway for merchant developers: throwaway database, fixed test merchant and keys, payments simulated by a click or POST /dev/orders/{trade_no}/pay (never for production)")
    .addHelpText(
      "after",
      "\nThe database is a temporary file removed on exit, unless --db PATH is given (a new file, or one\nan earlier `xpay dev` made; any other database is refused; a postgres:// URL of an empty database\nworks too). XPAY_DB and the other XPAY_*\nvariables are ignored." +
        examples("xpay dev", "xpay dev --port 0 --json   # CI: a free port, the setup as one JSON line", "xpay --db ./xpay-dev.db dev --port 8080   # keeps orders between runs"),
    )
    .option("--port <port>", "port to listen on; 0 picks a free one", "8080")
    .option("--host <host>", "address to bind", "127.0.0.1")
    .option("--notify-url <url>", "notify_url of the example order in the printed curl", "http://127.0.0.1:9999/notify")
    .option("--json", "print the test setup as one JSON line, then log lines as JSON")
    .action(async (o: DevFlags) => runDev(program, o));
}

function refuseEmptyDb(program: Command): void {
  if (program.getOptionValueSource("db") === "cli" && String(program.opts().db).trim() === "") {
    throw new CliError("--db is empty; give a file for the test database, e.g. --db ./xpay-dev.db");
  }
}

/** --db only when typed on this command line; a throwaway folder otherwise. */
async function chooseDatabase(program: Command): Promise<{ path: string; keysDir: string; temporary: string | null }> {
  if (program.getOptionValueSource("db") !== "cli") {
    const dir = mkdtempSync(join(tmpdir(), "xpay-dev-"));
    return { path: join(dir, "xpay-dev.db"), keysDir: join(dir, "keys"), temporary: dir };
  }
  const path = String(program.opts().db);
  refuseEmptyDb(program);
  if (isPostgresUrl(path)) {
    // An empty database or one an earlier `xpay dev` made; the key files go to a throwaway folder.
    await refuseRealPostgres(path);
    const dir = mkdtempSync(join(tmpdir(), "xpay-dev-"));
    return { path, keysDir: join(dir, "keys"), temporary: dir };
  }
  if (existsSync(path) && statSync(path).isFile() && statSync(path).size > 0) refuseRealDatabase(path);
  return { path, keysDir: `${resolve(path)}-keys`, temporary: null };
}

async function refuseRealPostgres(url: string): Promise<void> {
  let peek;
  try {
    peek = await peekSetting(url, DEV_MARKER_KEY);
  } catch (e) {
    throw new CliError(`cannot open database ${describePostgresUrl(url)}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (peek.hasTables && peek.value === undefined) {
    throw new CliError(`${describePostgresUrl(url)} is not a database made by xpay dev; xpay dev never runs on a real database (its merchant and keys are public test values): give an empty database or leave --db out`);
  }
}

/** The test merchant, its public keys and the /dev routes must never land in an operator's database. */
function refuseRealDatabase(path: string): void {
  let marked: string | undefined;
  try {
    const db = openDatabaseReadOnly(path);
    try {
      marked = storedSetting(db, DEV_MARKER_KEY);
    } finally {
      db.close();
    }
  } catch {
    marked = undefined;
  }
  if (marked === undefined) throw new CliError(`${path} is not a database made by xpay dev; xpay dev never runs on a real database (its merchant and keys are public test values): give a new file or leave --db out`);
}

function writeKeys(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const files: Record<keyof typeof KEY_FILES, string> = {
    merchant_private_key: DEV_MERCHANT_PRIVATE_KEY,
    merchant_private_key_base64: pemToBase64(DEV_MERCHANT_PRIVATE_KEY) + "\n",
    merchant_public_key: DEV_MERCHANT_PUBLIC_KEY,
    platform_public_key: DEV_PLATFORM_PUBLIC_KEY,
    platform_public_key_base64: pemToBase64(DEV_PLATFORM_PUBLIC_KEY) + "\n",
  };
  for (const [k, text] of Object.entries(files)) writeFileSync(join(dir, KEY_FILES[k as keyof typeof KEY_FILES]), text, { mode: 0o600 });
}

async function runDev(program: Command, o: DevFlags): Promise<void> {
  const port = checkPort(o.port, "--port");
  const host = checkHostSyntax(o.host, "--host");
  if (!/^https?:\/\/[^\s]+$/.test(o.notifyUrl)) throw new CliError(`--notify-url must be an http:// or https:// URL, not ${JSON.stringify(o.notifyUrl)}`);
  refuseEmptyDb(program); // a flag that cannot work is the line to show, even when the port is taken
  probeListen(host, port, "--host");
  const where = await chooseDatabase(program);
  const cleanup = () => {
    if (!where.temporary) return;
    // Seen once in CI (2026-11-29): the folder left behind after a clean exit on SIGTERM. The likely
    // cause: a store's worker thread (the alert facts' reader) ends some moments after terminate()
    // returns, and one still opening the database makes its -wal and -shm beside it while the
    // folder is being removed. So the folder is removed again until it is gone.
    for (let attempt = 0; attempt < 40 && existsSync(where.temporary); attempt++) {
      try {
        rmSync(where.temporary, { recursive: true, force: true });
      } catch {
        // a file made during the removal (ENOTEMPTY): the next attempt takes it
      }
      if (existsSync(where.temporary)) Bun.sleepSync(25);
    }
  };
  try {
    const gw = openGateway({ db: where.path, store: isPostgresUrl(where.path) ? openStore(where.path, "create") : new SqliteStore(openFor(where.path, "create")) });
    const setup = await seedDevGateway(gw);
    writeKeys(where.keysDir);
    const log = createLogger(o.json ? "json" : "pretty", undefined, (await gw.settings()).str("timezone"));
    gw.log = log;
    let info: DevInfo | null = null;
    // Loaded on use, like serve's: the other commands never load the server.
    const [{ startServer }, { devExtras }] = await Promise.all([import("../server/serve.ts"), import("../server/dev/plugin.ts")]);
    const server = await startServer(gw, { port, host, extras: devExtras(gw, () => info!) });
    const shownHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
    gw.baseUrl = `http://${shownHost}:${server.port}`;
    await gw.store.setSetting("base_url", gw.baseUrl); // links printed by `xpay --db ... order inspect`
    info = devInfo({ baseUrl: gw.baseUrl, database: describeDb(where.path), temporary: where.temporary !== null && !isPostgresUrl(where.path), keysDir: where.keysDir, setup });
    const curl = exampleCreateCurl(info, { outTradeNo: `DEV-${gw.clock.now()}`, notifyUrl: o.notifyUrl });
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      log.notice("stopping", { signal }, `${signal}: stopping`);
      await server.stop();
      gw.store.close();
      cleanup();
      process.exit(0);
    };
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void stop(signal));
    // Printed last: whoever reads it (a person, a CI script) may stop the process at once.
    console.log(o.json ? JSON.stringify({ event: "dev.ready", time: formatIsoLocal(Date.now(), log.timeZone), ...info, example_curl: curl }) : quickStart(info, curl, selfCommand()));
  } catch (e) {
    cleanup();
    if (e instanceof CliError) throw e;
    const code = (e as { code?: string }).code;
    if (code === "EADDRINUSE") throw new CliError(`port ${port} on ${host} is already in use; choose another with --port`);
    throw new CliError(`cannot start xpay dev: ${e instanceof Error ? e.message : String(e)}`);
  }
}

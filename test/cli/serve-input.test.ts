// Issue 15, clear one-line errors: every bad `xpay serve` input is one line that names the flag or
// the variable it came from, exit 1, and is found before anything is written: the database path
// (new here) is never created. Before, a bad --host failed as "ENOENT ... listen" after the
// database had been made, XPAY_PORT=abc was reported as --port, and a bad --base-url was accepted.
import { afterAll, expect, test } from "bun:test";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "../helpers.ts";

const MAIN = resolve("src/cli/main.ts");
const dir = tempDir("xpay-serve-input-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function serve(args: string[], env: Record<string, string> = {}) {
  const e: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1", ...env };
  for (const k of ["XPAY_DB", "XPAY_PORT", "XPAY_HOST", "XPAY_BASE_URL", "XPAY_LOG_FORMAT", "XPAY_TRUST_PROXY"]) if (!(k in env)) delete e[k];
  const p = Bun.spawn([process.execPath, MAIN, "--db", "./new.db", "serve", ...args], { cwd: dir, env: e as Record<string, string>, stdout: "pipe", stderr: "pipe" });
  const code = await Promise.race([p.exited, Bun.sleep(15_000).then(() => (p.kill("SIGKILL"), "still running"))]);
  return { code, out: await new Response(p.stdout).text(), err: await new Response(p.stderr).text() };
}

const HOST_HELP = "use 127.0.0.1 (this machine only), 0.0.0.0 (every interface) or one of this machine's own addresses";
const PORT_HELP = "must be a whole number from 0 to 65535 (0 picks a free port)";
const URL_HELP = "must be an http:// or https:// URL such as https://pay.example.com (payers open the cashier links under it)";

const cases: [string, string[], Record<string, string>, string][] = [
  ["a host name that does not resolve", ["--host", "nosuchhost.invalid"], {}, `--host nosuchhost.invalid does not resolve to an address of this machine; ${HOST_HELP}`],
  ["an address of another machine", ["--host", "192.0.2.1"], {}, `--host 192.0.2.1 is not an address of this machine; ${HOST_HELP}`],
  ["XPAY_HOST names the variable", [], { XPAY_HOST: "192.0.2.1" }, `XPAY_HOST 192.0.2.1 is not an address of this machine; ${HOST_HELP}`],
  ["a URL as host", ["--host", "http://127.0.0.1"], {}, '--host takes an address or host name such as 127.0.0.1 or 0.0.0.0, not a URL: "http://127.0.0.1"'],
  ["an empty host", ["--host", ""], {}, "--host is empty; use 127.0.0.1 (this machine only) or 0.0.0.0 (every interface)"],
  ["--port above 65535", ["--port", "70000"], {}, `--port ${PORT_HELP}, not "70000"`],
  ["--port negative", ["--port", "-1"], {}, `--port ${PORT_HELP}, not "-1"`],
  ["XPAY_PORT=abc names the variable", [], { XPAY_PORT: "abc" }, `XPAY_PORT ${PORT_HELP}, not "abc"`],
  ["--port wins over a bad XPAY_PORT", ["--port", "99999"], { XPAY_PORT: "abc" }, `--port ${PORT_HELP}, not "99999"`],
  ["--base-url without a scheme", ["--base-url", "pay.example.com"], {}, `--base-url ${URL_HELP}, not "pay.example.com"`],
  ["--base-url with another scheme", ["--base-url", "ftp://pay.example.com"], {}, `--base-url ${URL_HELP}, not "ftp://pay.example.com"`],
  ["--base-url with a query", ["--base-url", "https://pay.example.com/?a=1"], {}, `--base-url ${URL_HELP}, not "https://pay.example.com/?a=1"`],
  ["XPAY_BASE_URL names the variable", [], { XPAY_BASE_URL: "pay.example.com" }, `XPAY_BASE_URL ${URL_HELP}, not "pay.example.com"`],
  ["--log-format", ["--log-format", "xml"], {}, '--log-format must be json or pretty, not "xml"'],
  ["XPAY_LOG_FORMAT names the variable", [], { XPAY_LOG_FORMAT: "xml" }, 'XPAY_LOG_FORMAT must be json or pretty, not "xml"'],
  ["XPAY_TRUST_PROXY names the variable", [], { XPAY_TRUST_PROXY: "yes" }, 'XPAY_TRUST_PROXY takes the number of proxies in front of xpay (1 for one nginx), not "yes"'],
];

test.each(cases)("%s: one line, exit 1, no database created", async (_name, args, env, message) => {
  const r = await serve(args, env);
  expect({ err: r.err, code: r.code, out: r.out }).toEqual({ err: `error: ${message}\n`, code: 1, out: "" });
  expect(readdirSync(dir)).toEqual([]);
}, 20_000);

test("a port in use is found before the database is created", async () => {
  const taken = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  try {
    const r = await serve(["--port", String(taken.port)]);
    expect({ err: r.err, code: r.code }).toEqual({ err: `error: port ${taken.port} on 127.0.0.1 is already in use; choose another with --port\n`, code: 1 });
    expect(existsSync(join(dir, "new.db"))).toBe(false);
  } finally {
    taken.stop(true);
  }
}, 20_000);

test("a bad XPAY_BASE_URL is refused by the other commands too, naming the variable", () => {
  const p = Bun.spawnSync([process.execPath, MAIN, "--db", join(dir, "none.db"), "order", "list"], { env: { ...process.env, NO_COLOR: "1", XPAY_BASE_URL: "ftp://x" } });
  expect(p.stderr.toString()).toBe(`error: XPAY_BASE_URL ${URL_HELP}, not "ftp://x"\n`);
  expect(p.exitCode).toBe(1);
});

test("with --log-format json a refusal is one JSON line too", async () => {
  const r = await serve(["--log-format", "json", "--port", "70000"]);
  expect(r.code).toBe(1);
  expect(r.err.trim().split("\n")).toHaveLength(1);
  expect(JSON.parse(r.err)).toMatchObject({ level: "error", event: "serve.failed", error: `--port ${PORT_HELP}, not "70000"` });
  expect(readdirSync(dir)).toEqual([]);
}, 20_000);

// Issue 17, serving: the console under /admin on the main listener by default, off with --no-admin
// (then /admin is the main app's 404), or on a listener of its own (then the main listener has no
// /admin and the console's listener has nothing else); the first `serve` on a database without an
// operator prints a one-time setup link (pretty and JSON), a new one at each start.
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { type AdminPlacement } from "../../src/server/admin-listener.ts";
import { startServer } from "../../src/server/serve.ts";
import { harness, tempDir } from "../helpers.ts";

async function withServer(admin: AdminPlacement | undefined, run: (main: string, adminUrl: string | undefined) => Promise<void>) {
  const h = harness();
  const server = await startServer(h.gw, { port: 0, host: "127.0.0.1", admin });
  try {
    await run(server.url, server.adminUrl);
  } finally {
    await Promise.race([server.stop(), Bun.sleep(1000)]);
    h.close();
  }
}

const fetchNoRedirect = (url: string) => fetch(url, { redirect: "manual" });

describe("placement", () => {
  test("default: /admin on the main listener, next to the gateway's routes", async () => {
    await withServer(undefined, async (main) => {
      expect((await fetchNoRedirect(`${main}/admin`)).status).toBe(303);
      expect((await fetch(`${main}/healthz`)).status).toBe(200);
    });
  });

  test("off: every /admin path answers the main app's 404; the gateway is unchanged", async () => {
    await withServer("off", async (main) => {
      const unknown = await fetch(`${main}/no-such-path`);
      const expected = { status: unknown.status, body: await unknown.text() };
      for (const path of ["/admin", "/admin/login", "/admin/setup?token=x"]) {
        const res = await fetchNoRedirect(`${main}${path}`);
        expect({ path, status: res.status, body: await res.text() }).toEqual({ path, ...expected });
      }
      expect((await fetch(`${main}/healthz`)).status).toBe(200);
    });
  });

  test("own listener: the console there and only there", async () => {
    await withServer({ host: "127.0.0.1", port: 0 }, async (main, adminUrl) => {
      expect(adminUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetchNoRedirect(`${main}/admin`)).status).toBe(404);
      expect((await fetchNoRedirect(`${main}/admin/login`)).status).toBe(404);
      expect((await fetchNoRedirect(`${adminUrl}/admin`)).status).toBe(303);
      expect((await fetchNoRedirect(`${adminUrl}/admin/login`)).status).toBe(200);
      expect((await fetch(`${adminUrl}/healthz`)).status).toBe(404);
      expect((await fetch(`${main}/healthz`)).status).toBe(200);
    });
  });
});

describe("xpay serve", () => {
  const MAIN = resolve("src/cli/main.ts");
  const dir = tempDir("xpay-admin-serve-");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = { ...process.env, NO_COLOR: "1" };
  let n = 0;

  /**
   * Starts serve on a new database (or `db`), waits for its listening line and the console's lines
   * that follow it (they are written before the first request is awaited), stops it; returns the lines.
   */
  async function serveLines(args: string[], db = join(dir, `x${n++}.db`)): Promise<{ lines: string[] }> {
    const proc = Bun.spawn([process.execPath, MAIN, "--db", db, "serve", "--port", "0", ...args], { env, stdout: "pipe", stderr: "pipe" });
    let out = "";
    const reading = (async () => {
      const reader = proc.stdout.getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) out += new TextDecoder().decode(r.value);
    })();
    for (let i = 0; i < 200 && !/listening/.test(out); i++) await Bun.sleep(25);
    await Bun.sleep(300); // the setup link line follows the listening line
    proc.kill("SIGTERM");
    await proc.exited;
    await reading;
    return { lines: out.split("\n").filter(Boolean) };
  }

  test("a database without an operator: the setup link, in JSON and pretty; --no-admin prints none", async () => {
    const json = (await serveLines(["--log-format", "json"])).lines.map((l) => JSON.parse(l));
    const link = json.find((l) => l.event === "admin.setup_link");
    expect(link).toMatchObject({ level: "info", valid_hours: 24 });
    expect(link.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/admin\/setup\?token=[A-Za-z0-9_-]{43}$/);
    const pretty = (await serveLines([])).lines.join("\n");
    expect(pretty).toMatch(/no console operator yet: open http:\/\/127\.0\.0\.1:\d+\/admin\/setup\?token=[A-Za-z0-9_-]{43} within 24 hours/);
    expect((await serveLines(["--no-admin"])).lines.join("\n")).not.toContain("setup");
  }, 30_000);

  test("--admin-port: the console's own address, and the link points there", async () => {
    const json = (await serveLines(["--log-format", "json", "--admin-host", "127.0.0.1", "--admin-port", "0"])).lines.map((l) => JSON.parse(l));
    const own = json.find((l) => l.event === "admin.listening");
    const main = json.find((l) => l.event === "listening");
    const link = json.find((l) => l.event === "admin.setup_link");
    expect(own.url).not.toBe(`${main.url}/admin`);
    expect(link.url.startsWith(own.url.replace(/\/admin$/, ""))).toBe(true);
  }, 30_000);

  test("an operator exists: no link; admin_enabled 0: no link", async () => {
    const db = join(dir, "with-operator.db");
    expect(Bun.spawnSync([process.execPath, MAIN, "--db", db, "migrate"], { env }).exitCode).toBe(0);
    const off = Bun.spawnSync([process.execPath, MAIN, "--db", db, "settings", "set", "admin_enabled", "0"], { env });
    expect(off.exitCode).toBe(0);
    expect((await serveLines([], db)).lines.join("\n")).not.toContain("setup");
    Bun.spawnSync([process.execPath, MAIN, "--db", db, "settings", "set", "admin_enabled", "1"], { env });
    const add = Bun.spawnSync([process.execPath, MAIN, "--db", db, "admin", "add", "--user", "alice", "--password-stdin"], { env, stdin: Buffer.from("correct horse battery\n") });
    expect(add.exitCode).toBe(0);
    expect((await serveLines([], db)).lines.join("\n")).not.toContain("setup");
  }, 30_000);

  test("console flags that cannot work are refused in one line before anything starts", () => {
    const db = join(dir, "flags.db");
    const cases: [string[], string][] = [
      [["--no-admin", "--admin-port", "9999"], "--no-admin turns the console off; leave out --admin-host and --admin-port, or drop --no-admin"],
      [["--admin-host", "127.0.0.1"], "--admin-host needs --admin-port: the console's listener must have a port of its own"],
      [["--port", "18080", "--admin-port", "18080"], "--admin-port 18080 is the main listener's port; give the console another one"],
      [["--admin-port", "x"], '--admin-port must be a whole number from 0 to 65535 (0 picks a free port), not "x"'],
    ];
    for (const [args, message] of cases) {
      const p = Bun.spawnSync([process.execPath, MAIN, "--db", db, "serve", ...args], { env });
      expect({ args, err: p.stderr.toString(), code: p.exitCode }).toEqual({ args, err: `error: ${message}\n`, code: 1 });
    }
  }, 30_000);

  test("a flag that cannot work is the line shown even when the main port is taken (issue 31)", async () => {
    // Our own listener makes the port busy: the cases above leave --port at its default, 8080, which
    // another program on the machine may hold; the flag's line must win over "port in use".
    const busy = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("busy") });
    try {
      const p = Bun.spawnSync([process.execPath, MAIN, "--db", join(dir, "busy.db"), "serve", "--port", String(busy.port), "--no-admin", "--admin-port", "0"], { env });
      expect({ err: p.stderr.toString(), code: p.exitCode }).toEqual({ err: "error: --no-admin turns the console off; leave out --admin-host and --admin-port, or drop --no-admin\n", code: 1 });
    } finally {
      await busy.stop(true);
    }
  }, 30_000);
});

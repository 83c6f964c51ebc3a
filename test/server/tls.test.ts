// Built-in TLS: `serve --tls-cert --tls-key` answers HTTPS with the certificate (fetched with that
// certificate as the only trusted CA), and after the files are replaced, SIGHUP makes new
// connections get the new one without a restart (same pid, same port). Bad files are one line at
// start. The certificates are test-only fixtures (test/fixtures/tls/README.md).
import { afterAll, expect, test } from "bun:test";
import { copyFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "../helpers.ts";

const FIX = resolve(import.meta.dir, "..", "fixtures", "tls");
const pem = (name: string) => readFileSync(join(FIX, name), "utf8");
const dir = tempDir("xpay-tls-");
const cert = join(dir, "cert.pem");
const key = join(dir, "key.pem");
const started: Bun.Subprocess[] = [];
afterAll(() => {
  for (const p of started) if (p.exitCode === null) p.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const env = () => {
  const e: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1" };
  for (const k of ["XPAY_DB", "XPAY_BASE_URL", "XPAY_PORT", "XPAY_HOST"]) delete e[k];
  return e;
};

/** GET over HTTPS trusting only `ca`, on a fresh connection; the body or the error. */
async function get(url: string, ca: string): Promise<string> {
  try {
    const r = await fetch(url, { keepalive: false, headers: { connection: "close" }, tls: { ca } } as RequestInit);
    return `${r.status} ${(await r.json() as { status: string }).status}`;
  } catch (e) {
    return `refused: ${e instanceof Error ? e.message : String(e)}`;
  }
}

async function waitFor(p: Bun.Subprocess<"ignore", "pipe", "pipe">, text: string, out: { s: string }, reader: ReadableStreamDefaultReader<Uint8Array>) {
  while (!out.s.includes(text)) {
    const c = await Promise.race([reader.read(), Bun.sleep(15_000).then(() => null)]);
    if (!c || c.done) throw new Error(`no "${text}" in: ${out.s}${await new Response(p.stderr).text()}`);
    out.s += new TextDecoder().decode(c.value);
  }
}

test("HTTPS with the given certificate; replaced files and SIGHUP: the new certificate, same process and port", async () => {
  copyFileSync(join(FIX, "first.cert.pem"), cert);
  copyFileSync(join(FIX, "first.key.pem"), key);
  const p = Bun.spawn([process.execPath, "src/cli/main.ts", "--db", join(dir, "x.db"), "serve", "--port", "0", "--no-admin", "--tls-cert", cert, "--tls-key", key], { env: env(), stdout: "pipe", stderr: "pipe" });
  started.push(p);
  const reader = p.stdout.getReader();
  const out = { s: "" };
  await waitFor(p, "listening", out, reader);
  const url = /(https:\/\/127\.0\.0\.1:\d+)/.exec(out.s)![1]! + "/healthz";
  expect(out.s).toContain("base url https://127.0.0.1:"); // links payers get are https too
  expect(await get(url, pem("first.cert.pem"))).toBe("200 ok");
  expect(await get(url, pem("second.cert.pem"))).toStartWith("refused"); // the other CA does not vouch for it
  expect(await fetch(url.replace("https:", "http:")).then(() => "answered", () => "no plain http")).toBe("no plain http");

  writeFileSync(cert, pem("second.cert.pem"));
  writeFileSync(key, pem("second.key.pem"));
  p.kill("SIGHUP");
  await waitFor(p, "tls reloaded", out, reader);
  expect(out.s).toContain("test-only second");
  expect(await get(url, pem("second.cert.pem"))).toBe("200 ok");
  expect(await get(url, pem("first.cert.pem"))).toStartWith("refused");
  expect(p.exitCode).toBeNull();

  // A broken file on the next SIGHUP: logged, and the listener keeps the certificate it has.
  writeFileSync(key, "not a key");
  p.kill("SIGHUP");
  await waitFor(p, "tls.reload_failed", out, reader);
  expect(await get(url, pem("second.cert.pem"))).toBe("200 ok");

  p.kill("SIGTERM");
  expect(await p.exited).toBe(0);
});

test("without TLS, SIGHUP does not stop serve (systemctl reload is harmless)", async () => {
  const p = Bun.spawn([process.execPath, "src/cli/main.ts", "--db", join(dir, "plain.db"), "serve", "--port", "0", "--no-admin"], { env: env(), stdout: "pipe", stderr: "pipe" });
  started.push(p);
  const reader = p.stdout.getReader();
  const out = { s: "" };
  await waitFor(p, "listening", out, reader);
  p.kill("SIGHUP");
  await waitFor(p, "nothing to reload", out, reader);
  const port = /127\.0\.0\.1:(\d+)/.exec(out.s)![1];
  expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  p.kill("SIGTERM");
  expect(await p.exited).toBe(0);
});

test("a missing or non-PEM file, or one flag of the two, is one line before anything starts", () => {
  const run = (...args: string[]) => {
    const r = Bun.spawnSync([process.execPath, "src/cli/main.ts", "--db", join(dir, "never.db"), "serve", "--port", "0", ...args], { env: env() });
    return { code: r.exitCode, err: r.stderr.toString() };
  };
  writeFileSync(join(dir, "junk.pem"), "hello");
  expect(run("--tls-cert", cert)).toEqual({ code: 1, err: "error: --tls-cert and --tls-key go together: give the certificate chain and its private key (PEM files)\n" });
  expect(run("--tls-cert", join(dir, "nope.pem"), "--tls-key", key)).toEqual({ code: 1, err: `error: --tls-cert ${join(dir, "nope.pem")}: no such file\n` });
  expect(run("--tls-cert", join(dir, "junk.pem"), "--tls-key", key).err).toBe(`error: --tls-cert ${join(dir, "junk.pem")} is not a PEM file (no -----BEGIN CERTIFICATE----- line)\n`);
  expect(Bun.file(join(dir, "never.db")).size).toBe(0); // no database was made
});

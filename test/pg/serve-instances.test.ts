// A second `xpay serve` on a PostgreSQL database: several instances are what that database is for,
// so the start line says another one runs (naming it) without the SQLite mode's warning to stop one.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { resolve } from "node:path";
import { type PgCluster, startCluster, withPostgres } from "./cluster.ts";

const MAIN = resolve("src/cli/main.ts");

/** `xpay serve` with JSON lines; resolves once its listening line is out, with every line so far. */
async function serve(url: string, started: Bun.Subprocess[]): Promise<{ proc: Bun.Subprocess; lines: string[] }> {
  const proc = Bun.spawn([process.execPath, MAIN, "--db", url, "serve", "--port", "0", "--log-format", "json"], { env: { ...process.env, NO_COLOR: "1" }, stdout: "pipe", stderr: "pipe" });
  started.push(proc);
  const reader = proc.stdout.getReader();
  let text = "";
  while (!text.includes('"event":"listening"')) {
    const chunk = await reader.read();
    if (chunk.done) throw new Error(`serve ended: ${text}${await new Response(proc.stderr).text()}`);
    text += new TextDecoder().decode(chunk.value);
  }
  return { proc, lines: text.split("\n").filter((l) => l.startsWith("{")) };
}

withPostgres(() => {
  let cluster: PgCluster | null = null;
  const started: Bun.Subprocess[] = [];
  beforeAll(async () => {
    cluster = await startCluster();
  }, 120_000);
  afterAll(async () => {
    for (const p of started) if (p.exitCode === null) p.kill("SIGTERM");
    await Promise.all(started.map((p) => p.exited));
    cluster?.stop();
  });

  test("the second instance names the first without a warning", async () => {
    const url = await cluster!.createDatabase("two");
    const first = await serve(url, started);
    const second = await serve(url, started);
    const events = second.lines.map((l) => JSON.parse(l));
    expect(events.filter((e) => e.level === "warn")).toEqual([]);
    const other = events.find((e) => e.event === "serve.other_instance");
    expect(other).toMatchObject({ level: "info", other_pid: first.proc.pid });
    expect(other.message).toMatch(new RegExp(`^another xpay serve runs on this database \\(pid ${first.proc.pid} on this host, port \\d+, started .+\\): they share the payments and the notification work$`));
  }, 60_000);
});

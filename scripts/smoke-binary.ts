// Smoke test of the compiled executable itself, from an empty temp dir: serve on a free port,
// merchant add, channel add, a native create, simulate-pay, the notification received and
// verified, order inspect, and a clean stop on SIGTERM (exit 0, nothing left running, no -wal or -shm).
// XPAY_SMOKE_RUNNER runs the binary through an emulator for another CPU (scripts/test-release.ts:
// "qemu-aarch64 -L /usr/aarch64-linux-gnu" for the linux-arm64 release file); waits grow with it.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { md5Sign } from "../src/protocols/signing.ts";

const bin = resolve(process.argv[2] ?? "dist/xpay");
const runner = (process.env.XPAY_SMOKE_RUNNER ?? "").split(/\s+/).filter(Boolean);
const cmd = [...runner, bin];
const patience = runner.length > 0 ? 10 : 1; // an emulated CPU starts and answers several times slower
const dir = mkdtempSync(join(tmpdir(), "xpay-smoke-"));
const db = join(dir, "smoke.db");
const step = (s: string) => console.log(`smoke: ${s}`);

function run(...args: string[]): string {
  const p = Bun.spawnSync([...cmd, "--db", db, ...args], { cwd: dir });
  if (p.exitCode !== 0) throw new Error(`xpay ${args.join(" ")} exited ${p.exitCode}: ${p.stderr.toString().trim()}`);
  return p.stdout.toString();
}

function freePort(): number {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  const port = s.port!;
  s.stop(true);
  return port;
}

const received: Record<string, string>[] = [];
const receiver = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(req) {
    received.push(Object.fromEntries(new URLSearchParams(await req.text())));
    return new Response("success");
  },
});

let server: ReturnType<typeof Bun.spawn> | null = null;
try {
  const version = run("--version").trim();
  step(`binary ${cmd.join(" ")}, version ${version}`);
  // A compiled binary says what it is built from (scripts/build.ts --define); "(source)" is a checkout.
  if (!/^\d+\.\d+\.\d+\S* \(commit [0-9a-f]+(-dirty)?, built \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ, [a-z0-9-]+\)$/.test(version)) throw new Error(`--version lacks the build line: ${version}`);
  run("migrate"); // only serve and migrate create a database
  const merchant = JSON.parse(run("merchant", "add", "--name", "Smoke", "--json")) as { pid: number; secret: string };
  run("channel", "add", "--pid", "0", "--pay-type", "alipay", "--code", "a1", "--name", "A", "--qrcode", "https://qr.alipay.com/smoke");
  const port = freePort();
  server = Bun.spawn([...cmd, "--db", db, "serve", "--port", String(port), "--log-format", "json"], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const ok = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
    if (ok) break;
    if (i > 100 * patience) throw new Error("server did not become healthy");
    await Bun.sleep(100);
  }
  step(`serving on ${base}`);
  for (let i = 0; ; i++) {
    const health = (await (await fetch(`${base}/healthz`)).json()) as { workers: Record<string, string> };
    if (health.workers.notifier === "alive" && health.workers.checkpointer === "alive") break;
    if (i > 30 * patience) throw new Error(`background loops not reported alive: ${JSON.stringify(health)}`);
    await Bun.sleep(100);
  }
  step("healthz: notification worker and WAL checkpoint thread alive");
  // serve restarted itself, in the same process, with its allocator setting (src/cli/allocator.ts);
  // under an emulator (qemu-user, no binfmt entry) it cannot, and goes on as it is.
  const environ = process.env.MIMALLOC_PURGE_HOLES === undefined && !process.env.XPAY_SMOKE_RUNNER ? `/proc/${server.pid}/environ` : "";
  if (existsSync(environ) && !readFileSync(environ, "utf8").split("\0").includes("MIMALLOC_PURGE_HOLES=0")) throw new Error("serve runs without MIMALLOC_PURGE_HOLES=0");
  if (existsSync(environ)) step("serve restarted itself with MIMALLOC_PURGE_HOLES=0 (same process)");
  const icon = await fetch(`${base}/favicon.ico`);
  const iconBytes = new Uint8Array(await icon.arrayBuffer());
  if (icon.status !== 200 || icon.headers.get("content-type") !== "image/x-icon" || iconBytes[2] !== 1 || iconBytes.length < 1000) throw new Error(`/favicon.ico: ${icon.status} ${icon.headers.get("content-type")} ${iconBytes.length} bytes`);
  step(`favicon.ico embedded (${iconBytes.length} bytes)`);
  const params: Record<string, string> = { pid: String(merchant.pid), pay_type: "alipay", name: "Smoke", money: "1.23", out_trade_no: "S1", notify_url: `http://127.0.0.1:${receiver.port}/n` };
  params.sign = md5Sign(params, merchant.secret, ["sign"]);
  const created = (await (await fetch(`${base}/xpay/order/create`, { method: "POST", body: new URLSearchParams(params) })).json()) as { code: number; data: { trade_no: string } };
  if (created.code !== 200) throw new Error(`create failed: ${JSON.stringify(created)}`);
  const tradeNo = created.data.trade_no;
  step(`created ${tradeNo}`);
  run("simulate-pay", tradeNo);
  for (let i = 0; received.length === 0; i++) {
    if (i > 100 * patience) throw new Error(`no notification within ${10 * patience} s`);
    await Bun.sleep(100);
  }
  const n = received[0]!;
  if (n.trade_no !== tradeNo || n.status !== "2" || n.sign !== md5Sign(n, merchant.secret, ["sign"])) throw new Error(`bad notification ${JSON.stringify(n)}`);
  step("notification received with a valid signature");
  const inspected = JSON.parse(run("order", "inspect", tradeNo, "--json")) as { status: number; clientip: string };
  if (inspected.status !== 2) throw new Error(`order inspect says status ${inspected.status}`);
  if (inspected.clientip !== "127.0.0.1") throw new Error(`clientip should default to the peer address, got "${inspected.clientip}"`);
  step("order inspect: paid");
  // An operator rule runs on the linear-time engine (re2js) the executable carries: a wording no
  // built-in format knows pays once `rules add` names it.
  // Under an emulator the step is left out: the engine's 100 ms bound per message is wall time, and
  // an emulated CPU (qemu-user: 20-40x slower) can spend it on the first match; the engine is the same
  // JavaScript on every target, so the native run covers it.
  if (runner.length > 0) step("operator rule: skipped under an emulator (100 ms wall-time bound per message)");
  else {
    run("channel", "add", "--pid", String(merchant.pid), "--pay-type", "wxpay", "--code", "w1", "--name", "W", "--qrcode", "wxp://wx");
    run("rules", "add", "--package", "com.tencent.mm", "--title", "微信支付", "--text", "^收款到账(?<amount>\\d+(?:\\.\\d{1,2})?)元，来自.{1,20}$", "--pay-type", "wxpay");
    const wx: Record<string, string> = { pid: String(merchant.pid), pay_type: "wxpay", name: "Smoke", money: "2.34", out_trade_no: "S2", notify_url: `http://127.0.0.1:${receiver.port}/n` };
    wx.sign = md5Sign(wx, merchant.secret, ["sign"]);
    const order = (await (await fetch(`${base}/xpay/order/create`, { method: "POST", body: new URLSearchParams(wx) })).json()) as { code: number; data: { trade_no: string; trade_amount: string } };
    if (order.code !== 200) throw new Error(`wxpay create failed: ${JSON.stringify(order)}`);
    const content = JSON.stringify({ package_name: "com.tencent.mm", title: "微信支付", msg: `收款到账${order.data.trade_amount}元，来自张三`, device_name: "smoke-phone" });
    const rep: Record<string, string> = { from: "smoke-phone", content, timestamp: String(Math.floor(Date.now() / 1000)) };
    rep.sign = md5Sign(rep, merchant.secret, ["sign"]);
    const answered = (await (await fetch(`${base}/api/report/${merchant.pid}`, { method: "POST", body: new URLSearchParams(rep) })).json()) as { data?: { outcome?: string } };
    if (answered.data?.outcome !== "matched") throw new Error(`the operator rule did not pay: ${JSON.stringify(answered)}`);
    if ((JSON.parse(run("order", "inspect", order.data.trade_no, "--json")) as { status: number }).status !== 2) throw new Error("the rule's order is not paid");
    step("operator rule (re2js) recognised a message and paid its order");
  }
  server.kill("SIGTERM");
  const code = await Promise.race([server.exited, Bun.sleep(10_000 * patience).then(() => "timeout")]);
  if (code !== 0) throw new Error(`serve did not stop cleanly on SIGTERM: ${code}`);
  server = null;
  step("SIGTERM: exit 0");
  // Every connection closed, the threads' too (their workers are entry points of their own here).
  if (existsSync(`${db}-wal`) || existsSync(`${db}-shm`)) throw new Error("the stopped server left smoke.db-wal or -shm beside the database");
  step("SIGTERM: the log folded into the database file, no -wal or -shm left");
  console.log("smoke: 1 passed, 0 failed");
} catch (e) {
  console.error(`smoke: FAILED: ${e instanceof Error ? e.message : String(e)}`);
  console.log("smoke: 0 passed, 1 failed");
  process.exitCode = 1;
} finally {
  server?.kill("SIGKILL");
  receiver.stop(true);
  rmSync(dir, { recursive: true, force: true });
}

// Issue 19: `/dev/*` exists only under `xpay dev`. A real `xpay serve`, started on the very
// database an `xpay dev --db` made (the test merchant, its orders and the dev marker in it), has
// no /dev route, no X-Xpay-Mode header and no banner: nothing in `serve` reads a dev flag.
import { afterAll, expect, test } from "bun:test";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers.ts";
import { ROOT, startDev } from "./dev-process.ts";
import { md5Rule } from "./verify.ts";

const dir = tempDir("xpay-dev-serve-");
const db = join(dir, "dev.db");
const started: Bun.Subprocess[] = [];
afterAll(() => {
  for (const p of started) if (p.exitCode === null) p.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const form = (params: Record<string, string>) => ({ method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(params).toString() });

async function startServe(): Promise<{ base: string; proc: Bun.Subprocess }> {
  const proc = Bun.spawn([process.execPath, "src/cli/main.ts", "--db", db, "serve", "--port", "0"], { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" }, stdout: "pipe", stderr: "pipe" });
  started.push(proc);
  const reader = proc.stdout.getReader();
  let out = "";
  while (!/xpay listening/.test(out)) {
    const chunk = await reader.read();
    if (chunk.done) throw new Error(`serve stopped: ${out}`);
    out += new TextDecoder().decode(chunk.value);
  }
  reader.releaseLock();
  return { base: /listening on (http:\/\/\S+)/.exec(out)![1]!, proc };
}

test("xpay serve on a database xpay dev made: no /dev routes, no test-mode header, no banner", async () => {
  // xpay dev --db keeps its database (and its key folder) after it stops.
  const dev = await startDev(["--db", db, "dev", "--port", "0"]);
  started.push(dev.proc);
  expect(dev.db).toBe(db);
  expect(await dev.stop("SIGTERM")).toBe(0);
  expect(existsSync(db)).toBe(true);
  expect(existsSync(`${db}-keys/merchant_private_key.pem`)).toBe(true);

  const { base, proc } = await startServe();
  const params: Record<string, string> = { pid: "1001", pay_type: "alipay", name: "VIP", money: "1.00", out_trade_no: "S-1" };
  params.sign = md5Rule(params, "a1b2c3d4e5f60718293a4b5c6d7e8f90", ["sign"]);
  const created = (await (await fetch(`${base}/xpay/order/create`, form(params))).json()) as { code: number; data: { trade_no: string } };
  expect(created.code).toBe(200);
  const t = created.data.trade_no;

  for (const action of ["pay", "expire", "fail"]) {
    const res = await fetch(`${base}/dev/orders/${t}/${action}`, { method: "POST" });
    expect([action, res.status, res.headers.get("x-xpay-mode")]).toEqual([action, 404, null]);
  }
  for (const path of ["/dev", "/dev/", "/healthz", `/pay/${t}`]) expect([path, (await fetch(`${base}${path}`)).headers.get("x-xpay-mode")]).toEqual([path, null]);
  expect((await fetch(`${base}/dev`)).status).toBe(404);
  const page = await (await fetch(`${base}/pay/${t}`)).text();
  expect(page).toContain('id="xpay-boot"');
  expect(page).not.toContain("xpay-test-mode");
  expect(page).not.toContain("模拟支付成功");
  const status = (await (await fetch(`${base}/api/order/status`, form({ order_id: t }))).json()) as { status: number };
  expect(status.status).toBe(1); // nothing paid it
  proc.kill("SIGTERM");
  expect(await proc.exited).toBe(0);
}, 30_000);

// A test database never serves production (issue 27), and `/dev/*` exists only under `xpay dev`
// (issue 19). `xpay serve` on the very database an `xpay dev --db` made (the public test platform
// key, the test merchant with the guide's AppSecret, the dev mark) refuses to start in one line;
// `xpay db copy` out of it is refused too, unless told --drop-test-data, which leaves the test keys,
// the mark and the test merchant with every row of theirs behind and keeps the operator's own. A real
// `xpay serve` on that copy has no /dev route, no X-Xpay-Mode header and no banner; `xpay dev` still
// runs on its own database.
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { DEV_MERCHANT_PUBLIC_KEY, DEV_PLATFORM_PRIVATE_KEY, DEV_PLATFORM_PUBLIC_KEY } from "../../src/core/dev/keys.ts";
import { DEV_PID, DEV_SECRET } from "../../src/core/dev/mode.ts";
import { TEST_FINGERPRINTS, TEST_PID } from "../../src/core/test-database.ts";
import { snapshot } from "../cli/run-cli.ts";
import { tempDir } from "../helpers.ts";
import { ROOT, startDev } from "./dev-process.ts";
import { md5Rule } from "./verify.ts";

const dir = tempDir("xpay-dev-serve-");
const db = join(dir, "dev.db");
const copy = join(dir, "real.db");
const started: Bun.Subprocess[] = [];
afterAll(() => {
  for (const p of started) if (p.exitCode === null) p.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const env = () => {
  const e: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1" };
  delete e.XPAY_DB;
  return e;
};
const xpay = (...args: string[]) => {
  const p = Bun.spawnSync([process.execPath, "src/cli/main.ts", ...args], { cwd: ROOT, env: env() });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
};
const form = (params: Record<string, string>) => ({ method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(params).toString() });

async function startServe(path: string): Promise<{ base: string; proc: Bun.Subprocess }> {
  const proc = Bun.spawn([process.execPath, "src/cli/main.ts", "--db", path, "serve", "--port", "0"], { cwd: ROOT, env: env(), stdout: "pipe", stderr: "pipe" });
  started.push(proc);
  const reader = proc.stdout.getReader();
  let out = "";
  while (!/xpay listening/.test(out)) {
    const chunk = await reader.read();
    if (chunk.done) throw new Error(`serve stopped: ${out}${await new Response(proc.stderr).text()}`);
    out += new TextDecoder().decode(chunk.value);
  }
  reader.releaseLock();
  return { base: /listening on (http:\/\/\S+)/.exec(out)![1]!, proc };
}

const rows = (path: string, sql: string) => {
  const d = new Database(path, { readonly: true });
  try {
    return d.query(sql).all() as Record<string, unknown>[];
  } finally {
    d.close();
  }
};

let devTradeNo = "";

test("what serve recognises (by SHA-256, loading no test mode) is exactly what xpay dev seeds", () => {
  const sha = (v: string) => createHash("sha256").update(v).digest("hex");
  expect({ ...TEST_FINGERPRINTS } as Record<string, string>).toEqual({
    platformPrivateKey: sha(DEV_PLATFORM_PRIVATE_KEY), platformPublicKey: sha(DEV_PLATFORM_PUBLIC_KEY),
    merchantPublicKey: sha(DEV_MERCHANT_PUBLIC_KEY), merchantSecret: sha(DEV_SECRET),
  });
  expect(TEST_PID).toBe(DEV_PID);
});

test("setup: xpay dev --db makes a test database with an order; the operator adds a merchant of his own to it", async () => {
  const dev = await startDev(["--db", db, "dev", "--port", "0"]);
  started.push(dev.proc);
  devTradeNo = (JSON.parse(Bun.spawnSync(["bash", "-c", dev.curl]).stdout.toString()) as { data: { trade_no: string } }).data.trade_no;
  expect((await fetch(`${dev.base}/dev/orders/${devTradeNo}/pay`, { method: "POST" })).status).toBe(200);
  expect(await dev.stop("SIGTERM")).toBe(0);
  expect(xpay("--db", db, "merchant", "add", "--name", "Own shop", "--pid", "2001", "--secret", "0123456789abcdef0123456789abcdef").code).toBe(0);
  expect(xpay("--db", db, "channel", "add", "--pid", "2001", "--pay-type", "alipay", "--code", "own", "--name", "Own", "--qrcode", "https://qr.alipay.com/own").code).toBe(0);
}, 30_000);

test("xpay serve on it refuses to start in one line, says how to begin a real database, and changes nothing", () => {
  const before = snapshot(db);
  const r = xpay("--db", db, "serve", "--port", "0");
  expect(r.code).toBe(1);
  expect(r.out).toBe("");
  expect(r.err).toBe(
    `error: database ${db} was made by xpay dev (it holds the xpay dev mark, the public test platform private key, the public test platform public key: public test values anyone can sign with); ` +
      "xpay serve never runs on a test database: begin a real one with `xpay --db /var/lib/xpay/xpay.db serve` (a new file, or an empty postgres:// database), " +
      `or keep what you set up with \`xpay db copy --from ${db} --to NEW --drop-test-data\`\n`,
  );
  expect(snapshot(db)).toBe(before);
});

test("xpay db copy out of it is refused without --drop-test-data, and leaves no destination file", () => {
  const r = xpay("db", "copy", "--from", db, "--to", copy);
  expect(r.code).toBe(1);
  expect(r.err.trim().split("\n")).toHaveLength(1);
  expect(r.err).toContain(`source ${db} was made by xpay dev (it holds the xpay dev mark`);
  expect(r.err).toContain("test merchant 1001");
  expect(r.err).toContain("add --drop-test-data");
  expect(existsSync(copy)).toBe(false);
});

test("--drop-test-data: the copy holds no test key, mark or test merchant, nothing pointing at them, and the operator's own rows", () => {
  const r = xpay("db", "copy", "--from", db, "--to", copy, "--drop-test-data", "--json");
  expect(r.err).toBe("");
  expect(r.code).toBe(0);
  const out = JSON.parse(r.out) as { left_out: { what: string[]; tables: Record<string, number> } };
  expect(out.left_out.tables).toMatchObject({ settings: 3, merchants: 1, channel_accounts: 3, orders: 1, notifications: 1, keyed_clients: 1 });
  expect(out.left_out.what).toContain("test merchant 1001");

  const keys = rows(copy, "SELECT key, value FROM settings").map((s) => String(s.key));
  for (const k of ["dev_database", "platform_private_key", "platform_public_key"]) expect(keys).not.toContain(k);
  expect(rows(copy, "SELECT pid FROM merchants")).toEqual([{ pid: 2001 }]);
  const tables = rows(copy, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").map((t) => String(t.name));
  for (const t of tables) {
    const cols = rows(copy, `PRAGMA table_info("${t}")`).map((c) => String(c.name));
    if (cols.includes("pid")) expect([t, rows(copy, `SELECT count(*) AS n FROM "${t}" WHERE pid = 1001`)[0]!.n]).toEqual([t, 0]);
  }
  expect(rows(copy, "PRAGMA foreign_key_check")).toEqual([]);
  expect(rows(copy, "SELECT count(*) AS n FROM channel_accounts WHERE pid = 2001")[0]!.n).toBe(1);
  expect(rows(copy, "SELECT action FROM audit_log WHERE action = 'db.copy'")).toHaveLength(1);
});

test("xpay serve on the copy: a new platform key, no /dev routes, no test-mode header, no banner", async () => {
  const { base, proc } = await startServe(copy);
  expect(rows(copy, "SELECT value FROM settings WHERE key = 'platform_public_key'")[0]?.value).not.toBe(DEV_PLATFORM_PUBLIC_KEY);
  const params: Record<string, string> = { pid: "2001", pay_type: "alipay", name: "VIP", money: "1.00", out_trade_no: "S-1" };
  params.sign = md5Rule(params, "0123456789abcdef0123456789abcdef", ["sign"]);
  const created = (await (await fetch(`${base}/xpay/order/create`, form(params))).json()) as { code: number; data: { trade_no: string } };
  expect(created.code).toBe(200);
  const t = created.data.trade_no;
  for (const action of ["pay", "expire", "fail"]) {
    const res = await fetch(`${base}/dev/orders/${t}/${action}`, { method: "POST" });
    expect([action, res.status, res.headers.get("x-xpay-mode")]).toEqual([action, 404, null]);
  }
  for (const path of ["/dev", "/dev/", "/healthz", `/pay/${t}`]) expect([path, (await fetch(`${base}${path}`)).headers.get("x-xpay-mode")]).toEqual([path, null]);
  const page = await (await fetch(`${base}/pay/${t}`)).text();
  expect(page).toContain('id="xpay-boot"');
  expect(page).not.toContain("xpay-test-mode");
  expect(page).not.toContain("模拟支付成功");
  const status = (await (await fetch(`${base}/api/order/status`, form({ order_id: t }))).json()) as { status: number };
  expect(status.status).toBe(1); // nothing paid it
  proc.kill("SIGTERM");
  expect(await proc.exited).toBe(0);
}, 30_000);

test("xpay dev still runs on its own database, the test merchant and its paid order in place", async () => {
  const dev = await startDev(["--db", db, "dev", "--port", "0"]);
  started.push(dev.proc);
  const order = (await (await fetch(`${dev.base}/api/order/status`, form({ order_id: devTradeNo }))).json()) as { status: number };
  expect(order.status).toBe(2);
  expect(await dev.stop("SIGTERM")).toBe(0);
}, 30_000);

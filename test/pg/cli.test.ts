// The command line on a PostgreSQL URL: selection by --db and XPAY_DB, migrate and its downgrade
// guard, every command on it (backup included), and no password in any message.
import { PG_MIGRATIONS } from "../../src/store/postgres/migrations/index.ts";
import { afterAll, beforeAll, describe, expect, test as bunTest } from "bun:test";
import { SQL } from "bun";
import { Database } from "bun:sqlite";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createUnit, merchant, account, newOrder, payUnit, report } from "../store-contract/harness.ts";
import { PostgresStore } from "../../src/store/postgres/index.ts";
import { type PgCluster, startCluster, withPostgres } from "./cluster.ts";

/** Each test runs the CLI several times (a process start is ~0.5 s here, more under load). */
const test = (name: string, fn: () => void | Promise<unknown>) => bunTest(name, fn, 60_000);

function xpay(args: string[], env: Record<string, string> = {}) {
  const e: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1", ...env };
  if (!("XPAY_DB" in env)) delete e.XPAY_DB;
  const p = Bun.spawnSync([process.execPath, "src/cli/main.ts", ...args], { env: e });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

withPostgres(() => {
  describe("xpay on a postgres:// database", () => {
    let cluster: PgCluster;
    let url = "";
    beforeAll(async () => {
      cluster = await startCluster();
      url = await cluster.createDatabase("cli");
    }, 120_000);
    afterAll(() => cluster?.stop());

    test("migrate creates the schema (also through XPAY_DB and postgresql://), --status lists it, a rerun applies nothing", () => {
      const first = xpay(["--db", url, "migrate", "--json"]);
      expect(first.err).toBe("");
      expect(JSON.parse(first.out)).toMatchObject({ applied: PG_MIGRATIONS.map((m) => m.version), version: PG_MIGRATIONS.at(-1)!.version, known: PG_MIGRATIONS.at(-1)!.version });
      const again = xpay(["migrate"], { XPAY_DB: url.replace(/^postgres:/, "postgresql:") });
      expect(again.code).toBe(0);
      expect(again.out).toContain("nothing to apply");
      const status = xpay(["--db", url, "migrate", "--status"]);
      expect(status.out).toContain("applied  022 unmatched_money");
    });

    test("the core's commands work; simulate-pay pays an order and queues its notification", async () => {
      const store = PostgresStore.open(url);
      await merchant(store);
      await account(store);
      const r = await store.createOrder(createUnit(newOrder({ outTradeNo: "CLI-1" }), { now: Math.floor(Date.now() / 1000) }));
      await store.end();
      const tradeNo = r.kind === "created" ? r.order.tradeNo : "";
      const list = xpay(["--db", url, "merchant", "list", "--json"]);
      expect(JSON.parse(list.out).map((m: { pid: number }) => m.pid)).toEqual([1001]);
      const paid = xpay(["--db", url, "simulate-pay", tradeNo, "--json"]);
      expect(paid.err).toBe("");
      expect(JSON.parse(paid.out)).toMatchObject({ trade_no: tradeNo, paid: true, outcome: "matched", notification: { status: "pending", attempts: 0 } });
      const notes = xpay(["--db", url, "notify", "list", "--json"]);
      expect(JSON.parse(notes.out)[0]).toMatchObject({ trade_no: tradeNo, status: "pending" });
      for (const args of [["merchant", "show", "1001"], ["channel", "list"], ["order", "inspect", tradeNo], ["settings", "list"], ["notify", "show", tradeNo], ["client", "list"]]) {
        const r = xpay(["--db", url, ...args]);
        expect({ args, code: r.code, err: r.err }).toEqual({ args, code: 0, err: "" });
      }
    });

    test("operators and the audit log: admin add|list|passwd|sessions|revoke|remove, audit list, an audited reveal", () => {
      const run = (args: string[], stdin?: string) => {
        const p = Bun.spawnSync([process.execPath, "src/cli/main.ts", "--db", url, ...args], { env: { ...process.env, NO_COLOR: "1", XPAY_DB: undefined }, stdin: stdin === undefined ? undefined : Buffer.from(stdin) });
        return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
      };
      expect(run(["admin", "add", "--user", "Alice", "--password-stdin"], "correct horse battery\n")).toMatchObject({ code: 0, err: "" });
      expect(run(["admin", "add", "--user", "alice", "--password-stdin"], "another long password\n").err).toContain("exists already");
      expect(JSON.parse(run(["admin", "list", "--json"]).out).map((o: { name: string }) => o.name)).toEqual(["Alice"]);
      expect(run(["admin", "passwd", "--user", "ALICE", "--password-stdin"], "a new long password\n")).toMatchObject({ code: 0, err: "" });
      expect(JSON.parse(run(["admin", "sessions", "--json"]).out)).toEqual([]);
      expect(run(["admin", "revoke", "--user", "alice", "--all"])).toMatchObject({ code: 0, err: "" });
      const reveal = run(["merchant", "show", "1001", "--show-secret"]);
      expect(reveal).toMatchObject({ code: 0, err: "" });
      expect(reveal.out).toContain("secret-1001");
      expect(run(["admin", "remove", "--user", "alice"])).toMatchObject({ code: 0, err: "" });
      const audit = JSON.parse(run(["audit", "list", "--user", "CLI", "--json"]).out) as { actor: string; action: string }[];
      expect(audit.every((e) => e.actor === "cli")).toBe(true);
      expect(audit.map((e) => e.action)).toEqual(expect.arrayContaining(["operator.add", "operator.password", "operator.remove"]));
      expect(audit.length).toBeGreaterThanOrEqual(5);
    });

    test("the audited operator actions on the core store run, each leaving its audit entry", async () => {
      const other = await cluster.createDatabase("audited");
      const store = PostgresStore.open(other);
      await merchant(store);
      const used = await account(store, { code: "used" });
      const now = Math.floor(Date.now() / 1000);
      const orders = [];
      for (const n of [1, 2, 3]) {
        const r = await store.createOrder(createUnit(newOrder({ outTradeNo: `A-${n}`, amount: 1000 * n }), { now }));
        if (r.kind === "created") orders.push(r.order.tradeNo);
      }
      const { id: reportId } = await store.insertReport(report({ outcome: "unmatched", amount: 2990, createdAt: now }));
      await store.end();
      const run = (args: string[]) => {
        const r = xpay(["--db", other, ...args]);
        return { args, code: r.code, err: r.err };
      };
      const steps = [
        ["merchant", "add", "--name", "Second"], ["merchant", "set", "1001", "--name", "Renamed"], ["merchant", "disable", "1001"], ["merchant", "enable", "1001"],
        ["merchant", "rotate-secret", "1001"], ["keygen", "--pid", "1001"], ["settings", "set", "order_ttl", "600"],
        ["channel", "add", "--pid", "1001", "--pay-type", "wxpay", "--code", "spare", "--name", "Spare", "--qrcode", "wxp://y"],
        ["channel", "edit", String(used.id), "--name", "Main"], ["channel", "disable", String(used.id)], ["channel", "enable", String(used.id)],
        ["order", "close", orders[0]!], ["order", "confirm", orders[1]!, "--reason", "bank statement"], ["notify", "replay", orders[1]!],
        ["client", "add-vmq", "--pid", "1001", "--name", "phone"], ["client", "show-vmq", "phone"], ["channel", "remove", String(used.id + 1)],
        ["report", "assign", String(reportId), orders[2]!, "--reason", "payer's screenshot"],
      ];
      for (const args of steps) expect(run(args)).toEqual({ args, code: 0, err: "" });
      expect(xpay(["--db", other, "settings", "get", "order_ttl"]).out.trim()).toBe("600");
      const actions = (JSON.parse(xpay(["--db", other, "audit", "list", "--limit", "100", "--json"]).out) as { actor: string; action: string }[]);
      expect(actions.every((e) => e.actor === "cli")).toBe(true);
      expect(new Set(actions.map((e) => e.action))).toEqual(new Set([
        "merchant.add", "merchant.edit", "merchant.disable", "merchant.enable", "merchant.rotate_secret", "merchant.keygen", "settings.set",
        "account.add", "account.edit", "account.disable", "account.enable", "account.remove",
        "order.close", "order.confirm", "notification.replay", "client.add", "vmq_client.reveal_key", "report.assign",
      ]));
    });

    test("order list and report list search on PostgreSQL, with their filters", () => {
      const orders = JSON.parse(xpay(["--db", url, "order", "list", "--json"]).out) as { trade_no: string }[];
      expect(orders.length).toBeGreaterThanOrEqual(1);
      const paid = JSON.parse(xpay(["--db", url, "order", "list", "--status", "paid", "--json"]).out) as unknown[];
      expect(paid.length).toBe(1);
      const reports = JSON.parse(xpay(["--db", url, "report", "list", "--json"]).out) as unknown[];
      expect(reports.length).toBeGreaterThanOrEqual(1);
    });

    test("rules add|list|test|remove|unparsed and channel slots run on PostgreSQL", async () => {
      const other = await cluster.createDatabase("rules");
      const store = PostgresStore.open(other);
      await merchant(store);
      const acc = await account(store);
      const now = Math.floor(Date.now() / 1000);
      const r = await store.createOrder(createUnit(newOrder({ outTradeNo: "SLOT-1" }), { now }));
      const kept = (key: string, text: string, at: number) =>
        store.rules.recordUnparsed({ pid: 1001, key, pkg: "com.tencent.mm", title: "微信支付", text, reason: "no payment wording matched", now: at }, { total: 500 });
      await kept("a", "收款到账13.22元，来自张三", now - 10);
      await kept("b", "收款到账5元，来自李四", now);
      await store.end();
      const json = (args: string[]) => {
        const x = xpay(["--db", other, ...args, "--json"]);
        expect({ args, code: x.code, err: x.err }).toEqual({ args, code: 0, err: "" });
        return JSON.parse(x.out);
      };
      const A = String.raw`(?<amount>\d+(?:\.\d{1,2})?)`;
      const pattern = ["--package", "com.tencent.mm", "--title", "微信支付", "--text", `^收款到账${A}元，来自.{1,20}$`, "--pay-type", "wxpay"];
      expect(json(["rules", "unparsed"]).map((m: { text: string }) => m.text)).toEqual(["收款到账5元，来自李四", "收款到账13.22元，来自张三"]);
      expect(json(["rules", "test", ...pattern]).matches.map((m: { amount_cents: number }) => m.amount_cents)).toEqual([500, 1322]);
      expect(json(["rules", "add", ...pattern])).toMatchObject({ name: "wxpay-1", package: "com.tencent.mm" });
      expect(xpay(["--db", other, "rules", "add", ...pattern, "--name", "wxpay-1"]).err).toContain("a rule named wxpay-1 exists already");
      expect(json(["rules", "list"]).map((x: { name: string }) => x.name)).toEqual(["wxpay-1"]);
      expect(xpay(["--db", other, "rules", "remove", "wxpay-1"])).toMatchObject({ code: 0, out: "rule wxpay-1 removed\n" });
      expect(json(["rules", "list"])).toEqual([]);
      const slots = json(["channel", "slots", String(acc.id), "--amount", "10.00"]);
      expect(slots.slots.map((x: { trade_no: string; status: number }) => [x.trade_no, x.status])).toEqual([[r.kind === "created" ? r.order.tradeNo : "", 1]]);
      expect(slots.probe).toMatchObject({ amount_cents: 1000, next_cents: 999 });
    });

    test("stats and alert add|list|test|history|remove run on PostgreSQL; alert test posts to a loopback receiver", async () => {
      const other = await cluster.createDatabase("alerts");
      const store = PostgresStore.open(other);
      await merchant(store);
      await account(store);
      const now = Math.floor(Date.now() / 1000);
      const r = await store.createOrder(createUnit(newOrder({ outTradeNo: "STATS-1", amount: 1234 }), { now }));
      if (r.kind !== "created") throw new Error("no order");
      expect((await store.payOrder(payUnit(r.order.tradeNo, now))).kind).toBe("paid");
      await store.end();
      const json = (args: string[]) => {
        const x = xpay(["--db", other, ...args, "--json"]);
        expect({ args, code: x.code, err: x.err }).toEqual({ args, code: 0, err: "" });
        return JSON.parse(x.out);
      };
      expect(json(["stats", "--days", "1"]).total).toMatchObject({ paid_count: 1, paid_cents: r.order.tradeAmount, created: 1 });
      expect(json(["stats", "--by", "account"]).rows.map((x: { paid_count: number }) => x.paid_count)).toEqual([1]);
      const got: string[] = [];
      const receiver = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: async (req) => (got.push(await req.text()), new Response("ok")) });
      try {
        const added = json(["alert", "add", "--type", "webhook", "--name", "ops", "--url", `http://127.0.0.1:${receiver.port}/hook?token=tok-SECRET`]);
        expect(added.secret).toMatch(/^[0-9a-f]{32}$/);
        expect(xpay(["--db", other, "alert", "add", "--type", "webhook", "--name", "ops", "--url", "http://127.0.0.1:9/x"]).err).toContain("an alert channel named ops exists already");
        const list = json(["alert", "list"]);
        expect(list).toMatchObject({ channels: [{ name: "ops", type: "webhook", enabled: true }], firing: [] });
        expect(JSON.stringify(list)).not.toContain("tok-SECRET");
        // Not spawnSync: the receiver answers from this process's event loop.
        const p = Bun.spawn([process.execPath, "src/cli/main.ts", "--db", other, "alert", "test", "--name", "ops", "--json"], { env: { ...process.env, NO_COLOR: "1", XPAY_DB: undefined }, stdout: "pipe", stderr: "pipe" });
        const [code, out, err] = await Promise.all([p.exited, new Response(p.stdout).text(), new Response(p.stderr).text()]);
        expect({ code, err }).toEqual({ code: 0, err: "" });
        expect(JSON.parse(out)).toMatchObject({ channel: "ops", ok: true, http_status: 200, answer: "ok" });
        expect(got.length).toBe(1);
        expect(JSON.parse(got[0]!).event).toBe("test");
        expect(json(["alert", "history"])).toMatchObject([{ channel: "ops", event: "test", status: "sent", attempts: 1, http: 200 }]);
        expect(xpay(["--db", other, "alert", "remove", "--name", "ops"])).toMatchObject({ code: 0, out: "alert channel ops removed\n" });
        expect(json(["alert", "list"]).channels).toEqual([]);
        expect(json(["alert", "history"]).map((h: { channel: string }) => h.channel)).toEqual(["ops"]); // the history stays
      } finally {
        receiver.stop(true);
      }
    });

    test("backup writes a SQLite file (mode 0600) holding the same rows, which db copy restores into an empty database", async () => {
      const dir = mkdtempSync(join(tmpdir(), "xpay-pg-backup-"));
      try {
        const file = join(dir, "b.db");
        const r = xpay(["--db", url, "backup", file]);
        expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: "" });
        expect(statSync(file).mode & 0o777).toBe(0o600);
        expect(readdirSync(dir)).toEqual(["b.db"]); // no staging folder left
        const sql = new SQL(url, { max: 1 });
        const copy = new Database(file, { readonly: true });
        try {
          for (const table of ["merchants", "orders", "channel_accounts", "notifications", "reports", "settings", "audit_log", "operators"]) {
            const pg = Number((await sql.unsafe(`SELECT count(*) AS n FROM ${table}`))[0].n);
            const lite = (copy.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
            expect({ table, rows: lite }).toEqual({ table, rows: pg }); // an exact copy: no db.copy audit row
          }
        } finally {
          copy.close();
          await sql.close();
        }
        expect(xpay(["--db", url, "backup", file]).err).toContain("exists already");
        const restored = await cluster.createDatabase("restored");
        expect(xpay(["db", "copy", "--from", file, "--to", restored]).code).toBe(0);
        expect(JSON.parse(xpay(["--db", restored, "merchant", "list", "--json"]).out)).toEqual(JSON.parse(xpay(["--db", url, "merchant", "list", "--json"]).out));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    test("a schema a newer xpay wrote is refused by readers, writers and migrate", async () => {
      const other = await cluster.createDatabase("newer");
      expect(xpay(["--db", other, "migrate"]).code).toBe(0);
      const sql = new SQL(other, { max: 1 });
      await sql`INSERT INTO xpay_migrations (version, name, applied_at) VALUES (99, 'future', 0)`;
      await sql.close();
      for (const args of [["merchant", "list"], ["simulate-pay", "1"], ["migrate"]]) {
        const r = xpay(["--db", other, ...args]);
        expect(r.code).toBe(1);
        expect(r.err).toContain("schema version 99");
      }
    });

    test("another application's database is refused; an unreachable server is named without its password", async () => {
      const foreign = await cluster.createDatabase("foreign");
      const sql = new SQL(foreign, { max: 1 });
      await sql`CREATE TABLE invoices (id int)`;
      await sql.close();
      const r = xpay(["--db", foreign, "migrate"]);
      expect(r.code).toBe(1);
      expect(r.err).toContain("another application");
      const closed = `postgres://xpay:s3cret-pw@127.0.0.1:1/none`;
      const down = xpay(["--db", closed, "merchant", "list"]);
      expect(down.code).toBe(1);
      expect(down.err).toContain("cannot open database postgres://xpay:***@127.0.0.1:1/none");
      expect(down.err + down.out).not.toContain("s3cret-pw");
    });
  });
});

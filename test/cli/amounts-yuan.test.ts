// Issue 31 item 2: every amount an operator types takes yuan, one parser for all of them
// (core/money.ts readTypedYuan): `500` and `500.00` are 50000 cents stored, `5.001` and `abc` are
// refused with the yuan example and change nothing. Every amount printed carries ¥; --json keeps
// integer cents in fields named *_cents.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Gateway } from "../../src/core/gateway.ts";
import { buildApp } from "../../src/server/app.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import { BASE, nativeCreate, SECRET, tempDir } from "../helpers.ts";
import { cliOn } from "./run-cli.ts";

const dir = tempDir("xpay-cli-yuan-");
const db = join(dir, "yuan.db");
const { xpay, json, refused } = cliOn(db);
let gw: Gateway;
let app: ReturnType<typeof buildApp>;

/** What the database holds, read apart from the CLI. */
function stored(sql: string): unknown {
  const d = new Database(db, { readonly: true });
  try {
    return Object.values(d.query(sql).get() as Record<string, unknown>)[0];
  } finally {
    d.close();
  }
}

beforeAll(async () => {
  gw = openGateway({ db, baseUrl: BASE });
  app = buildApp(gw);
  await gw.store.addMerchant({ pid: 1001, name: "Shop", secret: SECRET, now: gw.clock.now() });
  json("channel", "add", "--pid", "1001", "--pay-type", "alipay", "--code", "a1", "--name", "A", "--qrcode", "https://qr.alipay.com/a1");
});
afterAll(() => {
  gw.store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every place an operator types an amount in the CLI: the command that sets it and where it lands, in cents. */
const TYPED: { name: string; set: (v: string) => string[]; read: () => unknown; label: string; max?: string }[] = [
  ...(["min", "max", "day"] as const).flatMap((f) => [
    { name: `channel add --${f}`, set: (v: string) => ["channel", "add", "--pid", "1001", "--pay-type", "wxpay", "--code", `w_${f}_${v.replace(/\W/g, "_")}`, "--name", "W", "--qrcode", "wxp://w", `--${f}`, v], read: () => stored(`SELECT ${f}_amount FROM channel_accounts ORDER BY id DESC LIMIT 1`), label: `--${f}` },
    { name: `channel edit --${f}`, set: (v: string) => ["channel", "edit", "1", `--${f}`, v], read: () => stored(`SELECT ${f}_amount FROM channel_accounts WHERE id = 1`), label: `--${f}` },
  ]),
  { name: "settings set max_offset", set: (v: string) => ["settings", "set", "max_offset", v], read: () => Number(stored("SELECT value FROM settings WHERE key = 'max_offset'")), label: "max_offset", max: "10.00" },
];

describe("every typed amount is yuan", () => {
  for (const t of TYPED) {
    const big = t.max ? "5" : "500";
    const cents = t.max ? 500 : 50000;
    test(`${t.name}: ${big} and ${big}.00 are ${cents} cents; 5.001 and abc refused with the example`, () => {
      if (t.name.startsWith("channel edit --m")) xpay("channel", "edit", "1", "--min", "0", "--max", "0"); // no bound in the way
      expect(xpay(...t.set(big)).code).toBe(0);
      expect(t.read()).toBe(cents);
      if (t.name.startsWith("channel edit")) expect(xpay(...t.set("0")).code).toBe(0);
      expect(xpay(...t.set(`${big}.00`)).code).toBe(0);
      expect(t.read()).toBe(cents);
      const example = t.max ? "0.10 or 1.00" : "500 or 500.00";
      const prefix = `${t.label}: `;
      refused(t.set("5.001"), `${prefix}"5.001" is not an amount in yuan; write it like ${example}`);
      refused(t.set("abc"), `${prefix}"abc" is not an amount in yuan; write it like ${example}`);
      if (t.max) refused(t.set("10.01"), `${prefix}"10.01" is more than ¥${t.max}, the most it can be`);
    });
  }

  test("settings set says what an amount became: the cents habit 10 reads ¥10.00", () => {
    expect(xpay("settings", "set", "max_offset", "10").out).toBe("max_offset set to ¥10.00\n");
    expect(xpay("settings", "set", "max_offset", "0.1").out).toBe("max_offset set to ¥0.10\n");
    expect(xpay("settings", "set", "order_ttl", "900").out).toBe("order_ttl set\n");
  });

  test("channel slots --amount is yuan too", () => {
    expect(json("channel", "slots", "1", "--amount", "12").probe).toMatchObject({ amount_cents: 1200 });
    refused(["channel", "slots", "1", "--amount", "12.345"], '--amount: "12.345" is not an amount in yuan; write it like 10 or 10.00');
  });
});

describe("printed with ¥, --json in *_cents", () => {
  let tradeNo = "";
  beforeAll(async () => {
    expect(xpay("settings", "set", "max_offset", "0.10").code).toBe(0);
    expect(xpay("channel", "edit", "1", "--min", "1", "--max", "500", "--day", "0").code).toBe(0);
    const res = await app.handle(new Request("http://localhost/xpay/order/create", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(nativeCreate({ money: "9.98" })),
    }));
    tradeNo = ((await res.json()) as { data: { trade_no: string } }).data.trade_no;
    expect(xpay("simulate-pay", tradeNo).code).toBe(0);
  });

  test("channel list", () => {
    expect(xpay("channel", "list").out).toMatch(/\n1 +1001 +alipay +a1 +A +true +¥1\.00 +¥500\.00 +none /);
    const a = json("channel", "list").find((x: { id: number }) => x.id === 1);
    expect(a).toMatchObject({ min_amount_cents: 100, max_amount_cents: 50000, day_amount_cents: 0 });
    expect(a.min_amount).toBeUndefined();
  });

  test("settings get / list", () => {
    expect(xpay("settings", "get", "max_offset").out).toBe("¥0.10\n");
    expect(xpay("settings", "list").out).toMatch(/max_offset +¥0\.10\n/);
    const all = json("settings", "list");
    expect(all.max_offset_cents).toBe(10);
    expect(all.max_offset).toBeUndefined();
    expect(xpay("settings", "--help").out).toContain("(default: ¥0.10)");
  });

  test("order inspect / list", () => {
    const text = xpay("order", "inspect", tradeNo).out;
    expect(text).toMatch(/amount +¥9\.98\n/);
    expect(text).toMatch(/trade_amount +¥9\.98\n/);
    expect(xpay("order", "list").out).toContain("¥9.98");
    expect(json("order", "inspect", tradeNo)).toMatchObject({ amount_cents: 998, amount_yuan: "9.98", trade_amount_cents: 998, trade_amount_yuan: "9.98" });
    expect(json("order", "list")[0]).toMatchObject({ amount_cents: 998, trade_amount_cents: 998 });
  });

  test("report list, stats", () => {
    expect(xpay("report", "list").out).toContain("¥9.98");
    expect(json("report", "list")[0]).toMatchObject({ amount_cents: 998 });
    expect(xpay("stats").out).toContain("¥9.98");
    expect(json("stats").total).toMatchObject({ paid_cents: 998, paid_yuan: "9.98" });
  });

  test("no --json output names a bare amount in cents", () => {
    const outputs = [json("channel", "list"), json("settings", "list"), json("order", "list"), json("report", "list"), json("channel", "slots", "1", "--amount", "9.98")];
    const keys = new Set<string>();
    const walk = (v: unknown) => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) (keys.add(k), walk(x));
    };
    outputs.forEach(walk);
    const bare = [...keys].filter((k) => /amount|offset$|^money$|^price$/.test(k) && !/_cents$|_yuan$|_percent$/.test(k));
    expect(bare).toEqual([]);
  });
});

test("add and edit print the limits as saved, so a cents habit shows at once", () => {
  const added = xpay("channel", "add", "--pid", "1001", "--pay-type", "qqpay", "--code", "q_habit", "--name", "Q", "--qrcode", "https://i.qianbao.qq.com/q", "--max", "50000");
  expect(added.out).toMatch(/^account added +id \d+ +qqpay Q +min none, max ¥50000\.00, day none\n$/);
  const id = added.out.match(/id (\d+)/)![1]!;
  expect(xpay("channel", "edit", id, "--max", "500", "--day", "0.5").out).toBe(`account ${id} updated  min none, max ¥500.00, day ¥0.50\n`);
});

// Migration 032 on PostgreSQL: the report-group function answers as 026's SQL one did, for every
// account, grouped or not, and for an account that does not exist; now from plpgsql, whose
// statements are planned once per connection (026's LANGUAGE sql body was parsed and planned on
// every call); and no function of the schema is LANGUAGE sql any more.
import { expect, test } from "bun:test";
import { SQL } from "bun";
import { PostgresStore } from "../../src/store/postgres/index.ts";
import { account, merchant } from "../store-contract/harness.ts";
import { clusterPerFile, withPostgres } from "./cluster.ts";

// 026's body of xpay_report_group, run as a plain query.
const REPORT_GROUP_026 = `SELECT ARRAY(SELECT $1::bigint UNION SELECT m.id FROM channel_accounts g JOIN channel_accounts m ON m.report_group = g.report_group
  WHERE g.id = $1::bigint AND g.report_group > 0 ORDER BY 1) AS ids`;

withPostgres(() => {
  const cluster = clusterPerFile();

  async function open(name: string) {
    const url = await cluster().createDatabase(name);
    const store = PostgresStore.open(url, { max: 4 });
    const sql = new SQL(url, { max: 1 });
    await merchant(store);
    return { store, sql, end: async () => (await store.end(), await sql.close()) };
  }

  test("xpay_report_group: plpgsql, and 026's answer for every account, grouped or not, and for no account", async () => {
    const { store, sql, end } = await open("groups");
    const ids: number[] = [];
    for (let i = 0; i < 9; i++) ids.push((await account(store, { payType: i % 2 ? "wxpay" : "alipay" })).id);
    // groups named by their first member: {0, 1, 2}, {3, 7}, {5} alone in its group; 4, 6, 8 in none
    const groups: [number, number[]][] = [[ids[0]!, [ids[0]!, ids[1]!, ids[2]!]], [ids[3]!, [ids[3]!, ids[7]!]], [ids[5]!, [ids[5]!]]];
    for (const [g, members] of groups) await sql`UPDATE channel_accounts SET report_group = ${g} WHERE id IN ${sql(members)}`;
    const [lang] = await sql`SELECT l.lanname FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang WHERE p.proname = 'xpay_report_group'`;
    expect(lang.lanname).toBe("plpgsql");
    for (const id of [...ids, 999_999]) {
      const [now] = await sql`SELECT xpay_report_group(${id}) AS ids`;
      const [then] = await sql.unsafe(REPORT_GROUP_026, [id]);
      expect(now.ids.map(Number)).toEqual(then.ids.map(Number));
    }
    const [g] = await sql`SELECT xpay_report_group(${ids[1]!}) AS ids`;
    expect(g.ids.map(Number)).toEqual([ids[0]!, ids[1]!, ids[2]!]);
    await end();
  });

  test("no function of the schema is LANGUAGE sql (PostgreSQL 15 plans such a body on every call it does not inline)", async () => {
    const { sql, end } = await open("languages");
    const rows = (await sql`SELECT p.proname, l.lanname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace JOIN pg_language l ON l.oid = p.prolang
      WHERE n.nspname = 'public' ORDER BY 1`) as { proname: string; lanname: string }[];
    expect(rows.map((r) => r.proname)).toContain("xpay_create_order");
    expect(rows.filter((r) => r.lanname === "sql").map((r) => r.proname)).toEqual([]);
    await end();
  });
});

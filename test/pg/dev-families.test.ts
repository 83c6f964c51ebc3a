// Every family through `xpay dev --db postgres://...` (issue 20: the protocols on the PostgreSQL
// store): native, epay V1 and V2, the hash protocol, V免签, the cashier template API, a retry, a
// failed payment, expiry and the test-mode marks, as test/dev/process.test.ts runs them on SQLite.
import { afterAll } from "bun:test";
import { devFamilies } from "../dev/families.ts";
import { type PgCluster, startCluster, withPostgres } from "./cluster.ts";

withPostgres(() => {
  let cluster: PgCluster | null = null;
  devFamilies(async () => {
    cluster = await startCluster();
    return ["--db", await cluster.createDatabase("families"), "dev", "--port", "0"];
  }, { sqliteFile: false });
  afterAll(() => cluster?.stop()); // after the dev server's own stop (hooks run in order)
});

// The store contract on SQLite: a new file per test; more instances are more connections to it.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { SqliteStore } from "../../src/store/sqlite/index.ts";
import { tempDir } from "../helpers.ts";
import { describeStore } from "./suite.ts";

let dir = "";
let open: SqliteStore[] = [];

describeStore("sqlite", {
  name: "SQLite",
  async fresh() {
    dir = tempDir("xpay-contract-");
    open = [SqliteStore.open(join(dir, "xpay.db"))];
    return open[0]!;
  },
  async another() {
    const s = SqliteStore.open(join(dir, "xpay.db"));
    open.push(s);
    return s;
  },
  async release() {
    for (const s of open) s.close();
    open = [];
    rmSync(dir, { recursive: true, force: true });
  },
});

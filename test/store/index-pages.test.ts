// What a busy second of creates writes: every page a commit changed goes to the write-ahead log
// once per commit, so an index whose new entries spread over many pages costs every create a page
// write. The indexes of the console's lists and of the totals (migrations 030, 031) only grow at
// their end, so a group commit of many creates writes a page or two of each, and so does the
// trade_no key since new orders are stored under a key that grows with each order (migration 041,
// src/store/sqlite/order-keys.ts); the slot index is random by design and is the control. Every create carries its own payer
// address, as real traffic does: an index keyed by it (023's, dropped in 040) would write a page a
// create. Counted in the log itself (frame headers name the page, SQLite's dbstat names the
// b-tree), not timed.
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { payerAddress } from "../../bench/native.ts";
import { SqliteStore } from "../../src/store/sqlite/index.ts";
import { account, createUnit, merchant, newOrder, T0 } from "../store-contract/harness.ts";

test("creates of one second write about one page per commit of the list and totals indexes and of the trade_no key, and one page per create of the slot index's", async () => {
  const dir = mkdtempSync(join(tmpdir(), "xpay-index-pages-"));
  try {
    const path = join(dir, "x.db");
    const store = SqliteStore.open(path);
    await merchant(store);
    for (let i = 0; i < 16; i++) await account(store);
    let n = 0;
    const batch = () => Promise.all(Array.from({ length: 64 }, () => store.createOrder(createUnit(newOrder({ amount: 100 + Math.floor(Math.random() * 99_900), clientip: payerAddress() }), {
      now: T0,
    })).then(() => n++)));
    for (let i = 0; i < 200; i++) await batch(); // 12,800 orders: a random index spans more pages than a commit has creates
    store.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    store.db.exec("PRAGMA wal_autocheckpoint = 0");
    const before = n;
    for (let i = 0; i < 20; i++) await batch();
    const creates = n - before;
    const wal = readFileSync(`${path}-wal`);
    const pageSize = wal.readUInt32BE(8);
    const owner = new Map((store.db.query("SELECT pageno, name FROM dbstat").all() as { pageno: number; name: string }[]).map((r) => [r.pageno, r.name]));
    const perCreate = new Map<string, number>();
    for (let off = 32; off + 24 + pageSize <= wal.length; off += 24 + pageSize) {
      const name = owner.get(wal.readUInt32BE(off)) ?? "";
      perCreate.set(name, (perCreate.get(name) ?? 0) + 1 / creates);
    }
    store.close();
    expect(creates).toBe(20 * 64);
    expect(perCreate.get("orders_slot")!).toBeGreaterThan(0.5); // random by design: by account and amount
    for (const index of ["sqlite_autoindex_orders_1", "orders_created_stats", "orders_by_pid_created", "orders_by_status_created", "orders_expiry"]) {
      expect({ index, pages: perCreate.get(index)! < 0.1 }).toEqual({ index, pages: true });
    }
    // Nothing else but the slot index pays a page a create, whatever it is named.
    const random = [...perCreate].filter(([name, pages]) => pages >= 0.1 && name !== "orders_slot");
    expect(random).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Merchants are read once a second at most: a change made through the same store is seen at once,
// one made by another process (the CLI on the same file) within the second.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { SqliteStore } from "../../src/store/sqlite/index.ts";
import { harness, type Harness, seed } from "../helpers.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
});
afterEach(() => h.close());

test("a change through the same store is seen at once", async () => {
  expect((await h.gw.store.getMerchant(1001))!.active).toBe(true);
  await h.gw.store.updateMerchant(1001, { active: false });
  expect((await h.gw.store.getMerchant(1001))!.active).toBe(false);
});

test("a change by another connection is seen within a second, not before the cache lapses", async () => {
  expect((await h.gw.store.getMerchant(1001))!.active).toBe(true);
  const cli = SqliteStore.open(h.dbPath);
  await cli.updateMerchant(1001, { active: false });
  cli.close();
  expect((await h.gw.store.getMerchant(1001))!.active).toBe(true); // still the cached read
  await Bun.sleep(1050);
  expect((await h.gw.store.getMerchant(1001))!.active).toBe(false);
});

test("an unknown pid is cached as unknown, and a merchant added here is seen at once", async () => {
  expect(await h.gw.store.getMerchant(2002)).toBeNull();
  await h.gw.store.addMerchant({ pid: 2002, name: "Second", secret: "s".repeat(32), now: h.clock.now() });
  expect((await h.gw.store.getMerchant(2002))!.name).toBe("Second");
});

test("the whole list is read once a second too: a report from the operator's client no longer reads every merchant", async () => {
  const first = await h.gw.store.listMerchants();
  expect(first.map((m) => m.pid)).toEqual([1001]);
  first.pop(); // a caller's array is its own
  const cli = SqliteStore.open(h.dbPath);
  await cli.addMerchant({ pid: 2002, name: "Second", secret: "s".repeat(32), now: h.clock.now() });
  cli.close();
  expect((await h.gw.store.listMerchants()).map((m) => m.pid)).toEqual([1001]); // the cached read
  await Bun.sleep(1050);
  expect((await h.gw.store.listMerchants()).map((m) => m.pid)).toEqual([1001, 2002]);
  await h.gw.store.updateMerchant(2002, { name: "Renamed" });
  expect((await h.gw.store.listMerchants()).find((m) => m.pid === 2002)!.name).toBe("Renamed"); // a change here: at once
  await h.gw.store.addMerchant({ pid: 3003, name: "Third", secret: "t".repeat(32), now: h.clock.now() });
  expect((await h.gw.store.listMerchants()).map((m) => m.pid)).toEqual([1001, 2002, 3003]);
});

test("a read in flight when a change clears the cache is not kept: the change is seen at once", async () => {
  // The read starts, the change runs before the read's answer is stored; the old answer must not
  // then sit in the cache for a second.
  const reading = h.gw.store.getMerchant(1001);
  const listing = h.gw.store.listMerchants();
  const changing = h.gw.store.updateMerchant(1001, { active: false, name: "Renamed" });
  await Promise.all([reading, listing, changing]);
  expect((await h.gw.store.getMerchant(1001))!.active).toBe(false);
  expect((await h.gw.store.listMerchants()).map((m) => m.name)).toEqual(["Renamed"]);
});

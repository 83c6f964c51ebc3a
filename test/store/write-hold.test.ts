// While the checkpoint thread rewinds the WAL the store holds its group commit: creates queue, none
// commits and none is answered, and all of them commit together once released.
import { expect, test } from "bun:test";
import { SqliteStore } from "../../src/store/sqlite/index.ts";
import { account, createUnit, merchant, newOrder } from "../store-contract/harness.ts";

test("held writes queue without committing and commit together when released", async () => {
  const store = SqliteStore.open(":memory:");
  await merchant(store);
  await account(store);
  store.holdWrites();
  let answered = 0;
  const creates = Array.from({ length: 5 }, (_, i) => store.createOrder(createUnit(newOrder({ amount: 1000 + i }))).then((r) => (answered++, r)));
  await Bun.sleep(30);
  expect(answered).toBe(0);
  expect((store.db.query("SELECT count(*) AS n FROM orders").get() as { n: number }).n).toBe(0);
  store.releaseWrites();
  const done = await Promise.all(creates);
  expect(done.map((r) => r.kind)).toEqual(["created", "created", "created", "created", "created"]);
  expect((store.db.query("SELECT count(*) AS n FROM orders").get() as { n: number }).n).toBe(5);
  store.close();
});

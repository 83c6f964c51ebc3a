// One contract for the Store port, run against every adapter (sqlite.test.ts, postgres.test.ts):
// a store is correct when it passes these, whatever engine is behind it. Each test gets a fresh
// empty database; every new store operation gets its tests here, so it lands in both adapters.
import { afterAll, afterEach, beforeAll, beforeEach, describe } from "bun:test";
import type { Store } from "../../src/core/store.ts";
import { accountsContract } from "./accounts.contract.ts";
import { acksContract } from "./acks.contract.ts";
import { adminContract } from "./admin.contract.ts";
import { alertsContract } from "./alerts.contract.ts";
import { allocationContract } from "./allocation.contract.ts";
import { browseContract } from "./browse.contract.ts";
import { clientsContract } from "./clients.contract.ts";
import { concurrencyContract } from "./concurrency.contract.ts";
import { dateFiltersContract } from "./date-filters.contract.ts";
import { deliveryContract } from "./delivery.contract.ts";
import { devContract } from "./dev.contract.ts";
import { devicesContract } from "./devices.contract.ts";
import { directoryContract } from "./directory.contract.ts";
import type { Ctx, StoreFactory } from "./harness.ts";
import { orderTotalsContract } from "./order-totals.contract.ts";
import { ordersContract } from "./orders.contract.ts";
import { outboxContract } from "./outbox.contract.ts";
import { paymentsContract } from "./payments.contract.ts";
import { reportGroupsContract } from "./report-groups.contract.ts";
import { reportBoundsContract } from "./report-bounds.contract.ts";
import { rollupContract } from "./rollup.contract.ts";
import { rulesContract } from "./rules.contract.ts";
import { slotsContract } from "./slots.contract.ts";
import { statsContract } from "./stats.contract.ts";

export function describeStore(adapter: string, factory: StoreFactory): void {
  let store: Store | null = null;
  const ctx: Ctx = {
    adapter,
    get store() {
      if (!store) throw new Error("no store: the test runs outside the suite");
      return store;
    },
    another: () => factory.another(),
  };
  describe(`Store contract (${factory.name})`, () => {
    beforeAll(async () => factory.setup?.(), 120_000);
    afterAll(async () => factory.teardown?.(), 60_000);
    beforeEach(async () => {
      store = await factory.fresh();
    });
    afterEach(async () => {
      store = null;
      await factory.release();
    });
    ordersContract(ctx);
    allocationContract(ctx);
    paymentsContract(ctx);
    outboxContract(ctx);
    dateFiltersContract(ctx);
    deliveryContract(ctx);
    acksContract(ctx);
    accountsContract(ctx);
    clientsContract(ctx);
    reportGroupsContract(ctx);
    concurrencyContract(ctx);
    adminContract(ctx);
    browseContract(ctx);
    orderTotalsContract(ctx);
    statsContract(ctx);
    rollupContract(ctx);
    alertsContract(ctx);
    rulesContract(ctx);
    slotsContract(ctx);
    devContract(ctx);
    devicesContract(ctx);
    reportBoundsContract(ctx);
    directoryContract(ctx);
  });
}

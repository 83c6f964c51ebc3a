import init from "./001_init.ts";
import useSeq from "./002_use_seq.ts";
import slotCovering from "./003_slot_covering.ts";
import paidSlots from "./004_paid_slots.ts";
import reportBounds from "./005_report_bounds.ts";
import vmqClients from "./006_vmq_clients.ts";
import vmqAccounts from "./007_vmq_accounts.ts";
import type { Migration } from "../../migrations/index.ts";

/**
 * PostgreSQL's migrations, numbered as SQLite's (src/store/migrations): version N here holds the
 * schema of version N there, so `xpay migrate` and the downgrade guard read the same numbers.
 * Versions 8 and later are not written yet (see ../README.md). Append only, sorted.
 */
export const PG_MIGRATIONS: Migration[] = [
  { version: 1, name: "init", sql: init },
  { version: 2, name: "use_seq", sql: useSeq },
  { version: 3, name: "slot_covering", sql: slotCovering },
  { version: 4, name: "paid_slots", sql: paidSlots },
  { version: 5, name: "report_bounds", sql: reportBounds },
  { version: 6, name: "vmq_clients", sql: vmqClients },
  { version: 7, name: "vmq_accounts", sql: vmqAccounts },
];

import init from "./001_init.ts";
import useSeq from "./002_use_seq.ts";
import slotCovering from "./003_slot_covering.ts";
import paidSlots from "./004_paid_slots.ts";
import reportBounds from "./005_report_bounds.ts";
import vmqClients from "./006_vmq_clients.ts";
import vmqAccounts from "./007_vmq_accounts.ts";
import operatorConsole from "./008_console.ts";
import alerts from "./009_alerts.ts";
import statsRules from "./010_stats_rules.ts";
import consoleBrowse from "./011_console_browse.ts";
import auditTarget from "./012_audit_target.ts";
import clientHistory from "./013_client_history.ts";
import notificationsUndelivered from "./014_notifications_undelivered.ts";
import keyedClients from "./015_keyed_clients.ts";
import unmatchedBounds from "./016_unmatched_bounds.ts";
import loginFailures from "./017_login_failures.ts";
import ruleTitles from "./018_rule_titles.ts";
import unmatchedMoney from "./022_unmatched_money.ts";
import merchantDelivery from "./023_merchant_delivery.ts";
import reportReasonCodes from "./027_report_reason_codes.ts";
import createBatch from "./028_create_batch.ts";
import orderRollup from "./025_order_rollup.ts";
import createFunction from "./026_create_function.ts";
import appendOnlyBrowse from "./030_append_only_browse.ts";
import ordersSeq from "./031_orders_seq.ts";
import createCosts from "./032_create_costs.ts";
import accountPages from "./033_account_pages.ts";
import directoryVersion from "./034_directory_version.ts";
import slotHeldUntil from "./035_slot_held_until.ts";
import freeAmountWidening from "./036_free_amount_widening.ts";
import pendingByMerchant from "./037_pending_by_merchant.ts";
import clientSeen from "./038_client_seen.ts";
import rollupPending from "./039_rollup_pending.ts";
import payerAddressInTotals from "./040_payer_address_in_totals.ts";
import orderNumberKey from "./041_order_number_key.ts";
import denseRanges from "./042_dense_ranges.ts";
import createRow from "./043_create_row.ts";
import quickBatch from "./044_quick_batch.ts";
import beatsTogether from "./045_beats_together.ts";
import type { Migration } from "../../migrations/index.ts";

/**
 * PostgreSQL's migrations, numbered as SQLite's (src/store/migrations): version N here holds the
 * schema of version N there, so `xpay migrate` and the downgrade guard read the same numbers.
 * Append only, sorted.
 */
export const PG_MIGRATIONS: Migration[] = [
  { version: 1, name: "init", sql: init },
  { version: 2, name: "use_seq", sql: useSeq },
  { version: 3, name: "slot_covering", sql: slotCovering },
  { version: 4, name: "paid_slots", sql: paidSlots },
  { version: 5, name: "report_bounds", sql: reportBounds },
  { version: 6, name: "vmq_clients", sql: vmqClients },
  { version: 7, name: "vmq_accounts", sql: vmqAccounts },
  { version: 8, name: "console", sql: operatorConsole },
  { version: 9, name: "alerts", sql: alerts },
  { version: 10, name: "stats_rules", sql: statsRules },
  { version: 11, name: "console_browse", sql: consoleBrowse },
  { version: 12, name: "audit_target", sql: auditTarget },
  { version: 13, name: "client_history", sql: clientHistory },
  { version: 14, name: "notifications_undelivered", sql: notificationsUndelivered },
  { version: 15, name: "keyed_clients", sql: keyedClients },
  { version: 16, name: "unmatched_bounds", sql: unmatchedBounds },
  { version: 17, name: "login_failures", sql: loginFailures },
  { version: 18, name: "rule_titles", sql: ruleTitles },
  { version: 22, name: "unmatched_money", sql: unmatchedMoney },
  { version: 23, name: "merchant_delivery", sql: merchantDelivery },
  { version: 25, name: "order_rollup", sql: orderRollup },
  { version: 26, name: "create_function", sql: createFunction },
  { version: 27, name: "report_reason_codes", sql: reportReasonCodes },
  { version: 28, name: "create_batch", sql: createBatch },
  { version: 30, name: "append_only_browse", sql: appendOnlyBrowse },
  { version: 31, name: "orders_seq", sql: ordersSeq },
  { version: 32, name: "create_costs", sql: createCosts },
  { version: 33, name: "account_pages", sql: accountPages },
  { version: 34, name: "directory_version", sql: directoryVersion },
  { version: 35, name: "slot_held_until", sql: slotHeldUntil },
  { version: 36, name: "free_amount_widening", sql: freeAmountWidening },
  { version: 37, name: "pending_by_merchant", sql: pendingByMerchant },
  { version: 38, name: "client_seen", sql: clientSeen },
  { version: 39, name: "rollup_pending", sql: rollupPending },
  { version: 40, name: "payer_address_in_totals", sql: payerAddressInTotals },
  { version: 41, name: "order_number_key", sql: orderNumberKey },
  { version: 42, name: "dense_ranges", sql: denseRanges },
  { version: 43, name: "create_row", sql: createRow },
  { version: 44, name: "quick_batch", sql: quickBatch },
  { version: 45, name: "beats_together", sql: beatsTogether },
];

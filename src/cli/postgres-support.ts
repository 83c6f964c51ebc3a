// The commands that do not run on PostgreSQL yet (issue 20 is built in steps: the core store
// first, the sub-ports after; src/store/postgres/README.md has the plan). Each is refused before
// the database is opened, so nothing is half done: the audited operator actions would write their
// change and then fail at the audit log, which lives in the console's part of the store.
import { isPostgresUrl } from "../store/postgres/url.ts";
import { CliError } from "./errors.ts";

const AUDITED = "its audit log entry (the operator console's store)";

/** command -> what it needs that PostgreSQL does not have yet */
export const NOT_ON_POSTGRES: Readonly<Record<string, string>> = {
  serve: "the server (the operator console, alerts, /metrics and message rules)",
  dev: "test mode (it keeps its own SQLite file; run it without --db)",
  "merchant add": AUDITED, "merchant disable": AUDITED, "merchant enable": AUDITED, "merchant set": AUDITED, "merchant rotate-secret": AUDITED,
  "channel add": AUDITED, "channel edit": AUDITED, "channel remove": AUDITED, "channel disable": AUDITED, "channel enable": AUDITED,
  "channel slots": "the reserved amounts view",
  keygen: AUDITED,
  "settings set": AUDITED,
  "order close": AUDITED, "order confirm": AUDITED, "order list": "the order search",
  "notify replay": AUDITED,
  "report assign": AUDITED, "report list": "the report search",
  "client add-vmq": AUDITED, "client show-vmq": AUDITED,
  stats: "income stats",
  "rules list": "operator message rules", "rules add": "operator message rules", "rules test": "operator message rules",
  "rules remove": "operator message rules", "rules unparsed": "operator message rules",
  "alert add": "alerts", "alert list": "alerts", "alert test": "alerts", "alert remove": "alerts", "alert history": "alerts",
};

/** Throws the refusal when `db` is a PostgreSQL URL and `command` needs what it lacks. */
export function refuseOnPostgres(command: string, db: string | undefined): void {
  const missing = NOT_ON_POSTGRES[command];
  if (missing && db !== undefined && isPostgresUrl(db)) {
    throw new CliError(`not supported on PostgreSQL yet: xpay ${command} (needs ${missing}); use a SQLite database for it, or a later xpay`);
  }
}

// The commands that do not run on PostgreSQL yet (issue 20 is built in steps: the core store
// first, the sub-ports after; src/store/postgres/README.md has the plan). Each is refused before
// the database is opened, so nothing is half done. The audit log (store.admin) and the search
// (store.browse) are ported, so the audited operator actions and the order and report lists run.
import { isPostgresUrl } from "../store/postgres/url.ts";
import { CliError } from "./errors.ts";

/** command -> what it needs that PostgreSQL does not have yet */
export const NOT_ON_POSTGRES: Readonly<Record<string, string>> = {
  serve: "the server (the operator console, alerts, /metrics and message rules)",
  dev: "test mode (it keeps its own SQLite file; run it without --db)",
};

/** Throws the refusal when `db` is a PostgreSQL URL and `command` needs what it lacks. */
export function refuseOnPostgres(command: string, db: string | undefined): void {
  const missing = NOT_ON_POSTGRES[command];
  if (missing && db !== undefined && isPostgresUrl(db)) {
    throw new CliError(`not supported on PostgreSQL yet: xpay ${command} (needs ${missing}); use a SQLite database for it, or a later xpay`);
  }
}

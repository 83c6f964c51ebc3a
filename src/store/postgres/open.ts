// Opening a PostgreSQL database for a command or a server: the pool (lazy: Bun connects at the
// first query), then, before any unit runs, the schema: refused when it belongs to another
// application or to a newer xpay, migrated for a writer, required current for a reader (a reader
// never writes, and PostgreSQL has no in-memory copy to upgrade as SQLite's readers do).
import { SQL } from "bun";
import { SchemaTooNewError } from "../migrate.ts";
import { APPLICATION_NAME } from "./call-share.ts";
import { PG_LATEST_VERSION, pgCurrentVersion, pgMigrate, refuseForeign } from "./migrate.ts";
import { describePostgresUrl } from "./url.ts";

/** create and write migrate; read only checks. */
export type PoolAccess = "create" | "write" | "read";

/** What went wrong reaching or reading the database, worded for the operator (never the password). */
export class PostgresOpenError extends Error {}

const DEFAULT_POOL = 10;

/** The beats' connections' name: the instance's, marked (PostgreSQL keeps 63 bytes). */
export const BEATS_APPLICATION_NAME = `${APPLICATION_NAME.slice(0, 57)} beats`;

/**
 * The pool a report's heartbeat (clients.ts recordClientSeen) is written on: sessions of its own,
 * whose commits do not wait for their WAL flush (synchronous_commit off, sent when each connection
 * opens, so nothing else ever runs with it). The beat held its phone's client row, and the rows of
 * the accounts it watches, until its flush: one phone's reports were written one flush after
 * another (docs/decisions/stores.md). A beat lost to a crash is a last-seen time a moment older;
 * no payment, order or notification is ever written here. One connection: the instance's beats go
 * one call at a time, each carrying the beats that waited (beats.ts).
 */
export function openBeatPool(url: string) {
  return new SQL(url, { max: 1, idleTimeout: 60, connectionTimeout: 10, connection: { application_name: BEATS_APPLICATION_NAME, synchronous_commit: "off" } });
}

export function openPool(url: string, access: PoolAccess, max = DEFAULT_POOL) {
  // Named, so that the instances on one database can count each other (call-share.ts) and an
  // operator can tell them apart in pg_stat_activity.
  const sql = new SQL(url, { max, idleTimeout: 60, connectionTimeout: 10, connection: { application_name: APPLICATION_NAME } });
  const where = describePostgresUrl(url);
  const ready = (async () => {
    let version: number;
    try {
      await refuseForeign(sql);
      if (access === "read") {
        version = await pgCurrentVersion(sql);
        if (version > PG_LATEST_VERSION) throw new SchemaTooNewError(version, PG_LATEST_VERSION);
        if (version < PG_LATEST_VERSION) {
          throw new PostgresOpenError(`database ${where} has schema version ${version}, older than this xpay (${PG_LATEST_VERSION}); run \`xpay migrate\` (or start \`xpay serve\`) first`);
        }
      } else {
        await pgMigrate(sql);
        version = await pgCurrentVersion(sql);
      }
    } catch (e) {
      if (e instanceof SchemaTooNewError || e instanceof PostgresOpenError) throw e;
      throw new PostgresOpenError(`cannot open database ${where}: ${e instanceof Error ? e.message : String(e)}`);
    }
    const rows = await sql`SELECT value FROM settings WHERE key = 'timezone'`;
    return { version, timezone: rows.length ? String(rows[0].value) : undefined };
  })();
  return { sql, ready };
}

// `xpay migrate` on a PostgreSQL database: the same listing and the same refusal of a schema a
// newer xpay wrote as on SQLite. The database itself must exist (createdb); xpay makes its tables.
import pc from "picocolors";
import { SQL } from "bun";
import { SchemaTooNewError } from "../store/migrate.ts";
import { ForeignDatabaseError, PG_LATEST_VERSION, pgCurrentVersion, pgMigrate, pgMigrationStatus, refuseForeign } from "../store/postgres/migrate.ts";
import { describePostgresUrl } from "../store/postgres/url.ts";
import { printJson } from "./context.ts";
import { CliError } from "./errors.ts";

export function pgTooNewMessage(url: string, found: number): string {
  return `database ${describePostgresUrl(url)} has schema version ${found}, newer than this xpay knows on PostgreSQL (${PG_LATEST_VERSION}): a newer xpay upgraded it; run that version; this one will not write to it`;
}

export async function migratePostgres(url: string, o: { status?: boolean; json?: boolean }): Promise<void> {
  const sql = new SQL(url, { max: 1, connectionTimeout: 10 });
  try {
    await refuseForeign(sql);
    const applied = o.status ? [] : await pgMigrate(sql);
    const version = await pgCurrentVersion(sql);
    const status = await pgMigrationStatus(sql);
    const newer = version > PG_LATEST_VERSION ? pgTooNewMessage(url, version) : null;
    if (o.json) return printJson({ applied, version, known: PG_LATEST_VERSION, migrations: status, ...(newer ? { newer } : {}) });
    for (const m of status) console.log(`${m.applied ? pc.green("applied") : pc.yellow("pending")}  ${String(m.version).padStart(3, "0")} ${m.name}`);
    if (newer) console.log(pc.yellow(newer));
    if (!o.status) console.log(applied.length ? `applied ${applied.join(", ")}` : "nothing to apply");
    console.log(pc.dim(`PostgreSQL has the schema up to ${PG_LATEST_VERSION}; the later versions (console, alerts, stats, rules, client history) come in a later xpay`));
  } catch (e) {
    if (e instanceof SchemaTooNewError) throw new CliError(pgTooNewMessage(url, e.found));
    if (e instanceof ForeignDatabaseError) throw new CliError(`database ${describePostgresUrl(url)} ${e.message.replace(/^the database /, "")}; check --db or XPAY_DB`);
    if (e instanceof CliError) throw e;
    throw new CliError(`cannot open database ${describePostgresUrl(url)}: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    await sql.close();
  }
}

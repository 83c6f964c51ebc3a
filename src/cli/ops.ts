import type { Command } from "commander";
import pc from "picocolors";
import { currentVersion, LATEST_VERSION, migrationStatus } from "../store/migrate.ts";
import { type Cli, CliError, printJson } from "./context.ts";
import { examples } from "./help.ts";
import { migrateOrRefuse, openFor, tooNewMessage } from "./database.ts";
import { migratePostgres } from "./migrate-postgres.ts";
import { isPostgresUrl } from "../store/postgres/url.ts";

export function register(program: Command, cli: Cli): void {
  program
    .command("backup <path>")
    .description("consistent online copy of the database (safe while serve runs); a new file, mode 0600")
    .addHelpText("after", examples("xpay backup /var/backups/xpay-2026-11-23.db", "XPAY_DB=/var/lib/xpay/xpay.db xpay backup ./before-upgrade.db"))
    .action(async (path: string) => {
      // The file as it is: a backup taken before an upgrade must keep the old schema (no migration).
      const store = cli.open({ upgrade: false }).store; // a missing database is its own line, not "backup failed"
      try {
        await store.backupTo(path);
      } catch (e) {
        throw new CliError(`backup failed: ${e instanceof Error ? e.message : String(e)}`);
      }
      console.log(`${pc.green("backup written")} ${path} ${pc.dim("(mode 0600: it holds every merchant secret and the platform private key)")}`);
    });

  program
    .command("migrate")
    .description("create the database if it does not exist, show the schema migrations and apply the pending ones (serve also applies them on start)")
    .addHelpText("after", examples("xpay migrate --status   # what a new version would apply", "xpay migrate"))
    .option("--status", "only show which migrations are applied (reads the file read-only, creates nothing)")
    .option("--json", "print JSON")
    .action(async (o: { status?: boolean; json?: boolean }) => {
      const path = cli.dbPath();
      if (isPostgresUrl(path)) return migratePostgres(path, o);
      const db = openFor(path, o.status ? "read" : "create", { upgrade: false });
      try {
        const applied = o.status ? [] : migrateOrRefuse(db, path);
        const version = currentVersion(db);
        const status = migrationStatus(db);
        const newer = version > LATEST_VERSION ? tooNewMessage(path, version) : null;
        if (o.json) return printJson({ applied, version, known: LATEST_VERSION, migrations: status, ...(newer ? { newer } : {}) });
        for (const m of status) console.log(`${m.applied ? pc.green("applied") : pc.yellow("pending")}  ${String(m.version).padStart(3, "0")} ${m.name}`);
        if (newer) console.log(pc.yellow(newer));
        if (!o.status) console.log(applied.length ? `applied ${applied.join(", ")}` : "nothing to apply");
      } finally {
        db.close();
      }
    });
}

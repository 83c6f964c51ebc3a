import type { Command } from "commander";
import pc from "picocolors";
import { openDatabase } from "../store/db.ts";
import { migrate, migrationStatus } from "../store/migrate.ts";
import { type Cli, CliError, printJson } from "./context.ts";

export function register(program: Command, cli: Cli): void {
  program
    .command("backup <path>")
    .description("consistent online copy of the database (safe while serve runs); a new file, mode 0600")
    .action(async (path: string) => {
      try {
        await cli.open().store.backupTo(path);
      } catch (e) {
        throw new CliError(`backup failed: ${e instanceof Error ? e.message : String(e)}`);
      }
      console.log(`${pc.green("backup written")} ${path} ${pc.dim("(mode 0600: it holds every merchant secret and the platform private key)")}`);
    });

  program
    .command("migrate")
    .description("show the schema migrations and apply the pending ones (serve also applies them on start)")
    .option("--status", "only show which migrations are applied")
    .option("--json", "print JSON")
    .action((o: { status?: boolean; json?: boolean }) => {
      let db;
      try {
        db = openDatabase(cli.dbPath());
      } catch (e) {
        throw new CliError(`cannot open database ${cli.dbPath()}: ${e instanceof Error ? e.message : String(e)}`);
      }
      try {
        const applied = o.status ? [] : migrate(db);
        const status = migrationStatus(db);
        if (o.json) return printJson({ applied, migrations: status });
        for (const m of status) console.log(`${m.applied ? pc.green("applied") : pc.yellow("pending")}  ${String(m.version).padStart(3, "0")} ${m.name}`);
        if (!o.status) console.log(applied.length ? `applied ${applied.join(", ")}` : "nothing to apply");
      } finally {
        db.close();
      }
    });
}

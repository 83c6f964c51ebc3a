import type { Command } from "commander";
import pc from "picocolors";
import { currentVersion, LATEST_VERSION, migrationStatus } from "../store/migrate.ts";
import { type Cli, CliError, printJson } from "./context.ts";
import { examples } from "./help.ts";
import { migrateOrRefuse, openFor, tooNewMessage } from "./database.ts";
import { migratePostgres } from "./migrate-postgres.ts";
import { isPostgresUrl } from "../store/postgres/url.ts";
import { backupIntoFolder } from "../core/backup-files.ts";
import { parseKeep } from "./backup-schedule-input.ts";

export function register(program: Command, cli: Cli): void {
  program
    .command("backup [path]")
    .description("consistent online copy of the database (safe while serve runs); a new file, mode 0600; --dir: a dated file in a folder, the oldest beyond --keep removed")
    .addHelpText(
      "after",
      examples(
        "xpay backup --dir /var/backups/xpay --keep 14   # xpay-2026-11-23T031500Z.db, the 14 newest kept",
        "XPAY_DB=/var/lib/xpay/xpay.db xpay backup ./before-upgrade.db",
      ),
    )
    .option("--dir <folder>", "write xpay-<UTC time>.db into this folder (created 0700 if missing)")
    .option("--keep <n>", "with --dir: keep the n newest of xpay's backups there, remove the older ones (default: keep all)")
    .option("--json", "print JSON")
    .action(async (path: string | undefined, o: { dir?: string; keep?: string; json?: boolean }) => {
      if ((path === undefined) === (o.dir === undefined)) throw new CliError("give a new backup file (xpay backup /var/backups/xpay/before-upgrade.db) or a folder for dated, rotated backups (xpay backup --dir /var/backups/xpay --keep 14), not both");
      if (o.keep !== undefined && o.dir === undefined) throw new CliError("--keep works with --dir (the folder whose backups it rotates)");
      const keep = o.keep === undefined ? Number.MAX_SAFE_INTEGER : parseKeep(o.keep, "--keep");
      // The file as it is: a backup taken before an upgrade must keep the old schema (no migration).
      const store = cli.open({ upgrade: false }).store; // a missing database is its own line, not "backup failed"
      let written: { file: string; removed: string[] };
      try {
        if (o.dir !== undefined) written = await backupIntoFolder(store, o.dir, keep);
        else {
          await store.backupTo(path!);
          written = { file: path!, removed: [] };
        }
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        // A dated name by hand (xpay-$(date +%F).db) collides on a second run the same day.
        const hint = /exists already/.test(why) ? " (or let xpay name and rotate them: xpay backup --dir FOLDER --keep N)" : "";
        throw new CliError(`backup failed: ${why}${hint}`);
      }
      if (o.json) return printJson({ file: written.file, removed: written.removed, mode: "0600" });
      console.log(`${pc.green("backup written")} ${written.file} ${pc.dim("(mode 0600: it holds every merchant secret and the platform private key)")}`);
      for (const r of written.removed) console.log(`${pc.dim("removed")} ${r} ${pc.dim(`(older than the ${keep} kept)`)}`);
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

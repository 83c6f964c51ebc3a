// The directory of who watches which account (Store.directory) on PostgreSQL: as on SQLite
// (sqlite/directory.ts), read again only when migration 034's version moved. The version is read
// on every call, so a change committed through another instance is in the next answer; it is read
// before the lists, so what is kept under a version is never older than it. Two calls that both
// find the version moved both read the lists; whichever keeps its answer last, the next call reads
// again if that answer's version is not the current one.
import type { SQL } from "bun";
import { directoryOf } from "../../core/clients/directory.ts";
import type { Directory } from "../../core/store.ts";
import { listChannels } from "./channels.ts";
import { listKeyedClients } from "./keyed-clients.ts";

export function directoryReader(db: () => Promise<SQL>): () => Promise<Directory> {
  let kept: { version: number; directory: Directory } | null = null;
  return async () => {
    const sql = await db();
    const [row] = await sql`SELECT v FROM directory_version`;
    const version = row ? Number(row.v) : null; // no row (deleted by hand): read every time
    if (version !== null && kept?.version === version) return kept.directory;
    const [accounts, clients] = await Promise.all([listChannels(sql), listKeyedClients(sql)]);
    const directory = directoryOf(accounts, clients);
    kept = version === null ? null : { version, directory };
    return directory;
  };
}

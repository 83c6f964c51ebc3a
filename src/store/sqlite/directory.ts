// The directory of who watches which account (Store.directory), read again only when migration
// 034's version moved. The triggers move it on every write of what the directory holds, from any
// connection, so a version read first and the lists read after can only be newer than the version
// they are kept under: the next call then reads them again, never the other way round.
import type { Database } from "bun:sqlite";
import { directoryOf } from "../../core/clients/directory.ts";
import type { Directory } from "../../core/store.ts";
import { listChannels } from "./channels.ts";
import { listKeyedClients } from "./keyed-clients.ts";
import { prepared } from "./statement.ts";

const VERSION = prepared("SELECT v FROM directory_version");

export function directoryReader(db: Database): () => Directory {
  let kept: { version: number; directory: Directory } | null = null;
  return () => {
    const row = VERSION(db).get() as { v: number } | null; // no row (deleted by hand): read every time
    if (row && kept?.version === row.v) return kept.directory;
    const directory = directoryOf(listChannels(db), listKeyedClients(db));
    kept = row ? { version: row.v, directory } : null;
    return directory;
  };
}

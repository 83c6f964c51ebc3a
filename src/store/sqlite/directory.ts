// The directory of who watches which account (Store.directory), read again only when migration
// 034's version moved (core/clients/directory.ts keptDirectory says how). The triggers move it on
// every write of what the directory holds, from any connection.
import type { Database } from "bun:sqlite";
import { keptDirectory } from "../../core/clients/directory.ts";
import type { Directory } from "../../core/store.ts";
import { listChannels } from "./channels.ts";
import { listKeyedClients } from "./keyed-clients.ts";
import { prepared } from "./statement.ts";

const VERSION = prepared("SELECT v FROM directory_version");

export function directoryReader(db: Database): () => Promise<Directory> {
  return keptDirectory(
    () => (VERSION(db).get() as { v: number } | null)?.v ?? null,
    () => [listChannels(db), listKeyedClients(db)],
  );
}

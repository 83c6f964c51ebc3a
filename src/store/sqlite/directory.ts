// The directory of who watches which account (Store.directory), read again only when migration
// 034's version moved (core/clients/directory.ts keptDirectory says how). The triggers move it on
// every write of what the directory holds, from any connection. Synchronous: the report
// settlement reads its accounts from it inside the write transaction (report-match.ts).
import type { Database } from "bun:sqlite";
import { keptDirectorySync } from "../../core/clients/directory.ts";
import type { Directory } from "../../core/store.ts";
import { listChannels } from "./channels.ts";
import { listKeyedClients } from "./keyed-clients.ts";
import { prepared } from "./statement.ts";

const VERSION = prepared("SELECT v FROM directory_version");

export function directoryReader(db: Database): () => Directory {
  return keptDirectorySync(
    () => (VERSION(db).get() as { v: number } | null)?.v ?? null,
    () => [listChannels(db), listKeyedClients(db)],
  );
}

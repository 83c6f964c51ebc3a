// The directory of who watches which account (Store.directory) on PostgreSQL: as on SQLite, read
// again only when migration 034's version moved (core/clients/directory.ts keptDirectory). The
// version is read on every call, so a change committed through another instance is in the next
// answer.
import type { SQL } from "bun";
import { keptDirectory } from "../../core/clients/directory.ts";
import type { Directory } from "../../core/store.ts";
import { listChannels } from "./channels.ts";
import { listKeyedClients } from "./keyed-clients.ts";

export function directoryReader(db: () => Promise<SQL>): () => Promise<Directory> {
  return keptDirectory(
    async () => {
      const [row] = await (await db())`SELECT v FROM directory_version`;
      return row ? Number(row.v) : null;
    },
    async () => {
      const sql = await db();
      return Promise.all([listChannels(sql), listKeyedClients(sql)]);
    },
  );
}

// The directory of who watches which account (Store.directory) on PostgreSQL: as on SQLite, read
// again only when migration 034's version moved (core/clients/directory.ts keptDirectory). The
// version is read on every call, so a change committed through another instance is in the next
// answer.
import type { SQL } from "bun";
import { directoryKeeper, keptDirectory, type Lists } from "../../core/clients/directory.ts";
import type { Directory } from "../../core/store.ts";
import { listChannels } from "./channels.ts";
import { listKeyedClients } from "./keyed-clients.ts";

export interface PgDirectory {
  /** Store.directory: the version read, then the lists only when it moved. */
  read(): Promise<Directory>;
  /** The directory at version `v`, read by the caller in its transaction `tx` (the report settlement, report-match.ts): the kept one, or the lists read in `tx`. */
  at(tx: SQL, v: number | null): Promise<Directory>;
  /** The directory kept now and its version, read by no one (null: nothing kept): a guess the caller checks against the version it reads. */
  latest(): { version: number; directory: Directory } | null;
}

const lists = (sql: SQL): Promise<Lists> => Promise.all([listChannels(sql), listKeyedClients(sql)]);

export function directoryReader(db: () => Promise<SQL>): PgDirectory {
  const k = directoryKeeper();
  return {
    read: keptDirectory(
      async () => {
        const [row] = await (await db())`SELECT v FROM directory_version`;
        return row ? Number(row.v) : null;
      },
      async () => lists(await db()),
      k,
    ),
    at: async (tx, v) => k.get(v) ?? k.put(v, await lists(tx)),
    latest: k.latest,
  };
}

import init from "./001_init.ts";

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Every migration, in order. Append only; never edit one that has shipped. */
export const MIGRATIONS: Migration[] = [{ version: 1, name: "init", sql: init }];

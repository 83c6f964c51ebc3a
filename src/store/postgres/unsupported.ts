// The sub-ports of Store not built on PostgreSQL yet (README.md lists them). Each is an object whose
// every method refuses at once with a line that says what is missing, so a command or a page that
// needs one fails clearly instead of misbehaving, and the rest of the store works.

import type { Store } from "../../core/store.ts";

/** The properties of Store that are not methods: its sub-ports (store.admin, store.stats, ...). */
export type SubPortName = { [K in keyof Store]-?: Store[K] extends (...args: never[]) => unknown ? never : K }[keyof Store];

export class NotOnPostgresError extends Error {
  constructor(what: string) {
    super(`not supported on PostgreSQL yet: ${what}`);
  }
}

export function unsupported<T extends object>(port: string, what: string): T {
  return new Proxy({} as T, {
    get(_target, prop) {
      if (typeof prop === "symbol" || prop === "then") return undefined; // not a thenable, not iterable
      return () => {
        throw new NotOnPostgresError(`${what} (store.${port}.${prop})`);
      };
    },
  });
}

// The commands refused on PostgreSQL name real commands (a typo would let one through unrefused),
// and every command that needs a sub-port not ported to PostgreSQL yet is in the table.
import { expect, test } from "bun:test";
import { NOT_ON_POSTGRES, refuseOnPostgres } from "../../src/cli/postgres-support.ts";
import { buildProgram } from "../../src/cli/main.ts";
import type { Command } from "commander";

function commands(c: Command, prefix: string[] = []): string[] {
  return c.commands.flatMap((s) => (s.commands.length ? commands(s, [...prefix, s.name()]) : [[...prefix, s.name()].join(" ")]));
}

test("every refused command exists", () => {
  const all = new Set(commands(buildProgram().program));
  expect(Object.keys(NOT_ON_POSTGRES).filter((c) => !all.has(c))).toEqual([]);
});

test("what runs on PostgreSQL: the core's own commands, operators, the audit log, the audited actions and the searches", () => {
  const runs = commands(buildProgram().program).filter((c) => !(c in NOT_ON_POSTGRES)).sort();
  expect(runs).toEqual([
    "admin add", "admin list", "admin passwd", "admin remove", "admin revoke", "admin sessions", "alert add", "alert history", "alert list", "alert remove", "alert test", "audit list",
    "backup", "channel add", "channel disable", "channel edit", "channel enable", "channel list", "channel remove", "channel slots",
    "client add-vmq", "client list", "client show-vmq", "db copy", "keygen",
    "merchant add", "merchant disable", "merchant enable", "merchant list", "merchant rotate-secret", "merchant set", "merchant show",
    "migrate", "notify list", "notify replay", "notify show", "order close", "order confirm", "order inspect", "order list",
    "report assign", "report list", "rules add", "rules list", "rules remove", "rules test", "rules unparsed",
    "settings get", "settings list", "settings set", "simulate-pay", "stats",
  ]);
});

test("only a postgres:// or postgresql:// database is refused", () => {
  expect(() => refuseOnPostgres("dev", "postgres://u@h/db")).toThrow("not supported on PostgreSQL yet: xpay dev");
  expect(() => refuseOnPostgres("dev", "POSTGRESQL://u@h/db")).toThrow("not supported on PostgreSQL yet");
  expect(() => refuseOnPostgres("dev", "./postgres.db")).not.toThrow();
  expect(() => refuseOnPostgres("merchant add", "postgres://u@h/db")).not.toThrow();
  expect(() => refuseOnPostgres("dev", undefined)).not.toThrow();
});
